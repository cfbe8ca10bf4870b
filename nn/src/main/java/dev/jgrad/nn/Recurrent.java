package dev.jgrad.nn;

import dev.jgrad.autograd.CustomFunction;
import dev.jgrad.autograd.Trace;
import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.internal.fused.FusedLstm;
import dev.jgrad.tensor.Shape;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.List;

/**
 * One layer of {@code nn.LSTM} and {@code nn.GRU} (batch_first), with PyTorch's weights and gate order.
 * The definition is a composite of differentiable ops: the input projection of every time step is one
 * matrix product; each step then adds the hidden projection and applies the gates. A float32 LSTM runs
 * as one fused op instead ({@link FusedLstm}), tested against the composite.
 */
public final class Recurrent {
    private Recurrent() {
    }

    /** The outputs of a layer: {@code y (B, T, H)}, the last hidden state {@code h (B, H)} and, for an LSTM, the last cell state. */
    public record State(Variable output, Variable hidden, Variable cell) {
    }

    /**
     * One LSTM layer over {@code x (B, T, In)} from {@code h0}, {@code c0 (B, H)}: gates i, f, g, o, in that
     * order in {@code wIh (4H, In)}, {@code wHh (4H, H)} and the biases {@code (4H)} (which may be null).
     * {@code c' = f c + i g}, {@code h' = o tanh(c')}.
     */
    public static State lstm(Variable x, Variable h0, Variable c0, Variable wIh, Variable wHh, Variable bIh, Variable bHh) {
        int hidden = wHh.size(1);
        check("lstm", x, h0, wIh, wHh, 4, hidden);
        checkState("lstm", "c0", c0, x.size(0), hidden);
        int mark = Trace.mark();
        State s = Functional.allFloat32(x, h0, c0, wIh, wHh, bIh, bHh) ? fusedLstm(x, h0, c0, wIh, wHh, bIh, bHh)
                : compositeLstm(x, h0, c0, wIh, wHh, bIh, bHh);
        if (Trace.on()) {
            Trace.annotate(mark, new Variable[] {s.output(), s.hidden(), s.cell()}, "lstm", x, h0, c0, wIh, wHh, bIh, bHh);
        }
        return s;
    }

    private static State compositeLstm(Variable x, Variable h0, Variable c0, Variable wIh, Variable wHh, Variable bIh, Variable bHh) {
        List<Variable[]> steps = steps(x, h0, c0, wIh, wHh, bIh, bHh);
        List<Variable> outs = new ArrayList<>(steps.size());
        Variable h = h0;
        Variable c = c0;
        for (Variable[] hc : steps) {
            h = hc[0];
            c = hc[1];
            outs.add(h);
        }
        return new State(Variable.stack(outs, 1), h, c);
    }

    /** The composite's steps: the hidden and cell state {@code (B, H)} after each. */
    private static List<Variable[]> steps(Variable x, Variable h0, Variable c0, Variable wIh, Variable wHh, Variable bIh, Variable bHh) {
        Variable projected = project(x, wIh, bIh, bHh);
        Variable h = h0;
        Variable c = c0;
        List<Variable[]> out = new ArrayList<>(x.size(1));
        // One transposed view for all steps: their gradients add up in its layout, and reach wHh transposed once.
        Variable wHhT = wHh.t();
        for (int t = 0; t < x.size(1); t++) {
            List<Variable> q = projected.select(1, t).add(h.matmul(wHhT)).chunk(4, 1);
            Variable i = q.get(0).sigmoid();
            Variable f = q.get(1).sigmoid();
            Variable g = q.get(2).tanh();
            Variable o = q.get(3).sigmoid();
            c = f.mul(c).add(i.mul(g));
            h = o.mul(c.tanh());
            out.add(new Variable[] {h, c});
        }
        return out;
    }

    /** The fused op's output {@code (T, B, 2H)}, {@code [h_t | c_t]} for every step, from the composite: its definition. */
    private static Variable fusedOutput(Variable x, Variable h0, Variable c0, Variable wIh, Variable wHh, Variable bIh, Variable bHh) {
        List<Variable> rows = new ArrayList<>();
        for (Variable[] hc : steps(x, h0, c0, wIh, wHh, bIh, bHh)) {
            rows.add(Variable.cat(1, hc[0], hc[1]));
        }
        return Variable.stack(rows, 0);
    }

    /**
     * The whole layer as one op in float32 ({@link FusedLstm#lstm}), with a backward of its own: its
     * output {@code (T, B, 2H)} holds {@code [h_t | c_t]}, of which the layer's output and last states are
     * views. The composite above is the definition it is tested against, and what other dtypes (float64,
     * so gradcheck) use.
     */
    private static State fusedLstm(Variable x, Variable h0, Variable c0, Variable wIh, Variable wHh, Variable bIh, Variable bHh) {
        int hidden = wHh.size(1);
        int steps = x.size(1);
        Tensor xt = x.data().transpose(0, 1);
        FusedLstm.LstmForward f = FusedLstm.lstm(xt, h0.data(), c0.data(), wIh.data(), wHh.data(),
                bIh == null ? null : bIh.data(), bHh == null ? null : bHh.data());
        List<Variable> inputs = new ArrayList<>(List.of(x, h0, c0, wIh, wHh));
        if (bIh != null) {
            inputs.add(bIh);
        }
        if (bHh != null) {
            inputs.add(bHh);
        }
        int count = inputs.size();
        Variable out = CustomFunction.apply("lstm", f.output(), inputs.toArray(new Variable[0]),
                new Tensor[] {xt, wIh.data(), wHh.data(), f.output(), f.activated(), f.tanhCell()},
                (g, saved, needs) -> {
                    boolean anyBias = false;
                    for (int i = 5; i < count; i++) {
                        anyBias |= needs[i];
                    }
                    boolean[] want = {needs[0], needs[1], needs[2], needs[3], needs[4], anyBias};
                    FusedLstm.LstmGradients d = FusedLstm.lstmBackward(g,
                            new FusedLstm.LstmForward(saved[3], saved[4], saved[5]), saved[0], saved[1], saved[2], want);
                    Tensor[] grads = new Tensor[count];
                    grads[0] = d.x() == null ? null : d.x().transpose(0, 1);
                    grads[1] = d.h0();
                    grads[2] = d.c0();
                    grads[3] = d.wIh();
                    grads[4] = d.wHh();
                    // Both biases get the same gradient (the engine gives each leaf a .grad of its own).
                    for (int i = 5; i < count; i++) {
                        grads[i] = needs[i] ? d.bias() : null;
                    }
                    return grads;
                }, in -> fusedOutput(in[0], in[1], in[2], in[3], in[4], bIh == null ? null : in[5],
                        bHh == null ? null : in[bIh == null ? 5 : 6]));
        Variable y = out.narrow(2, 0, hidden).transpose(0, 1);
        Variable last = out.select(0, steps - 1);
        return new State(y, last.narrow(1, 0, hidden), last.narrow(1, hidden, hidden));
    }

    /**
     * One GRU layer over {@code x (B, T, In)} from {@code h0 (B, H)}: gates r, z, n in that order.
     * {@code n = tanh(W_in x + b_in + r (W_hn h + b_hn))}, {@code h' = (1 - z) n + z h}.
     */
    public static State gru(Variable x, Variable h0, Variable wIh, Variable wHh, Variable bIh, Variable bHh) {
        int hidden = wHh.size(1);
        check("gru", x, h0, wIh, wHh, 3, hidden);
        int mark = Trace.mark();
        Variable projected = project(x, wIh, bIh, null);
        Variable h = h0;
        List<Variable> outs = new ArrayList<>(x.size(1));
        for (int t = 0; t < x.size(1); t++) {
            List<Variable> xi = projected.select(1, t).chunk(3, 1);
            List<Variable> hh = Variable.linear(h, wHh, bHh).chunk(3, 1);
            Variable r = xi.get(0).add(hh.get(0)).sigmoid();
            Variable z = xi.get(1).add(hh.get(1)).sigmoid();
            Variable n = xi.get(2).add(r.mul(hh.get(2))).tanh();
            h = n.add(z.mul(h.sub(n)));
            outs.add(h);
        }
        State s = new State(Variable.stack(outs, 1), h, null);
        if (Trace.on()) {
            Trace.annotate(mark, new Variable[] {s.output(), s.hidden()}, "gru", x, h0, wIh, wHh, bIh, bHh);
        }
        return s;
    }

    /** {@code x W_ih^T + b_ih (+ b_hh)} for every step at once: {@code (B, T, G H)}. */
    private static Variable project(Variable x, Variable wIh, Variable bIh, Variable bHh) {
        Variable bias = bIh == null ? bHh : (bHh == null ? bIh : bIh.add(bHh));
        return Variable.linear(x, wIh, bias);
    }

    private static void check(String name, Variable x, Variable h0, Variable wIh, Variable wHh, int gates, int hidden) {
        if (x.dim() != 3) {
            throw new ShapeException(name + ": expected a batch_first input (B, T, input_size), got " + Shape.str(x.shape()));
        }
        if (x.size(1) == 0) {
            throw new ShapeException(name + ": Expected sequence length to be larger than 0 in RNN, got input " + Shape.str(x.shape()));
        }
        if (wIh.dim() != 2 || wIh.size(0) != gates * hidden || wIh.size(1) != x.size(2)) {
            throw new ShapeException(name + ": input.size(-1) must be equal to input_size, and weight_ih must be (" + gates
                    + " * hidden_size, input_size) = [" + gates * hidden + ", " + x.size(2) + "]; got weight_ih "
                    + Shape.str(wIh.shape()) + " for input " + Shape.str(x.shape()));
        }
        if (wHh.dim() != 2 || wHh.size(0) != gates * hidden) {
            throw new ShapeException(name + ": weight_hh must be (" + gates + " * hidden_size, hidden_size), got " + Shape.str(wHh.shape()));
        }
        checkState(name, "h0", h0, x.size(0), hidden);
    }

    private static void checkState(String name, String what, Variable s, int batch, int hidden) {
        if (s.dim() != 2 || s.size(0) != batch || s.size(1) != hidden) {
            throw new ShapeException(name + ": expected " + what + " of size [" + batch + ", " + hidden + "] (batch, hidden_size), got "
                    + Shape.str(s.shape()));
        }
    }
}
