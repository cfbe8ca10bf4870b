package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Layers applied in order, named "0", "1", ... as in PyTorch (so its parameters are {@code 0.weight}, {@code 2.bias}). */
public class Sequential extends Layer {
    private final List<Layer> layers = new ArrayList<>();

    /** The layers, applied in order. */
    public Sequential(Layer... layers) {
        for (Layer l : layers) {
            add(l);
        }
    }

    /** Appends {@code layer}, named by its position as PyTorch names it; returns this. */
    public Sequential add(Layer layer) {
        registerModule(String.valueOf(layers.size()), layer);
        layers.add(layer);
        return this;
    }

    /** The layer at position {@code i}. */
    public Layer get(int i) {
        return layers.get(i);
    }

    /** The number of layers. */
    public int size() {
        return layers.size();
    }

    /** The layers, in order. */
    public List<Layer> layers() {
        return Collections.unmodifiableList(layers);
    }

    @Override
    public Variable forward(Variable x) {
        Variable h = x;
        for (Layer l : layers) {
            h = l.forward(h);
        }
        return h;
    }
}
