package dev.jgrad.nn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * {@code nn.ModuleList}: submodules in order, registered under their index ({@code h.0.attn.c_attn.weight}), for
 * models that call them in a loop of their own rather than one after the other as {@link Sequential} does.
 * <pre>{@code
 * ModuleList blocks = registerModule("h", new ModuleList());
 * for (int i = 0; i < layers; i++) blocks.add(new Block(config));
 * for (Module b : blocks) x = ((Block) b).forward(x);
 * }</pre>
 */
public class ModuleList extends Module implements Iterable<Module> {
    private final List<Module> modules = new ArrayList<>();

    /** A list of {@code modules}, named 0, 1, ... as PyTorch names them. */
    public ModuleList(Module... modules) {
        for (Module m : modules) {
            add(m);
        }
    }

    /** A list of {@code modules}, named 0, 1, ... as PyTorch names them. */
    public ModuleList(List<? extends Module> modules) {
        for (Module m : modules) {
            add(m);
        }
    }

    /** Appends {@code m}, registered under the next index. */
    public ModuleList add(Module m) {
        if (m == null) {
            throw new IllegalArgumentException("ModuleList.add: the module is null");
        }
        registerModule(Integer.toString(modules.size()), m);
        modules.add(m);
        return this;
    }

    /** The module at {@code i}; negative counts from the end, as in Python. */
    public Module get(int i) {
        int k = i < 0 ? i + modules.size() : i;
        if (k < 0 || k >= modules.size()) {
            throw new IndexOutOfBoundsException("index " + i + " is out of range for a ModuleList of " + modules.size());
        }
        return modules.get(k);
    }

    /** The number of modules. */
    public int size() {
        return modules.size();
    }

    @Override
    public Iterator<Module> iterator() {
        return Collections.unmodifiableList(modules).iterator();
    }
}
