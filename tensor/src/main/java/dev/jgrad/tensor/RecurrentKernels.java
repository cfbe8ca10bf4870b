package dev.jgrad.tensor;

/**
 * One LSTM cell step in float32 as two passes instead of a dozen elementwise ops, and its backward as one.
 * Gates come pre-activation as {@code (B, 4H)} in PyTorch's order i, f, g, o; the step returns the new
 * hidden and cell states side by side, {@code (B, 2H)}, and what backward needs.
 */
public final class RecurrentKernels {
    private RecurrentKernels() {
    }

    /** The new states {@code [h' | c']}, the activated gates {@code [σ(i) | σ(f) | tanh(g) | σ(o)]} and {@code tanh(c')}. */
    public record LstmStep(Tensor states, Tensor activated, Tensor tanhCell) {
    }

    /** {@code c' = σ(f) c + σ(i) tanh(g)}, {@code h' = σ(o) tanh(c')}. */
    public static LstmStep lstmCell(Tensor gates, Tensor cell) {
        int b = gates.size(0);
        int h = cell.size(1);
        check(gates, cell, b, h);
        Tensor act = dense(gates.sigmoid());
        act.narrow(1, 2 * h, h).copyFrom(gates.narrow(1, 2 * h, h).tanh());
        Tensor c = dense(cell);
        Tensor states = Tensor.empty(DType.FLOAT32, b, 2 * h);
        float[] a = act.storage.f();
        float[] cp = c.storage.f();
        float[] s = states.storage.f();
        for (int r = 0; r < b; r++) {
            int ar = r * 4 * h;
            int sr = r * 2 * h + h;
            int cr = r * h;
            for (int j = 0; j < h; j++) {
                s[sr + j] = a[ar + h + j] * cp[cr + j] + a[ar + j] * a[ar + 2 * h + j];
            }
        }
        Tensor tanhCell = dense(states.narrow(1, h, h).tanh());
        float[] t = tanhCell.storage.f();
        for (int r = 0; r < b; r++) {
            int ar = r * 4 * h + 3 * h;
            int sr = r * 2 * h;
            int tr = r * h;
            for (int j = 0; j < h; j++) {
                s[sr + j] = a[ar + j] * t[tr + j];
            }
        }
        return new LstmStep(states, act, tanhCell);
    }

    /**
     * The gradients of the pre-activation gates {@code (B, 4H)} and of the previous cell {@code (B, H)},
     * from the gradient of {@code [h' | c']}.
     */
    public static Tensor[] lstmCellBackward(Tensor grad, Tensor activated, Tensor tanhCell, Tensor cell) {
        int b = activated.size(0);
        int h = tanhCell.size(1);
        Tensor g = dense(grad.to(DType.FLOAT32));
        Tensor c = dense(cell);
        Tensor dGates = Tensor.empty(DType.FLOAT32, b, 4 * h);
        Tensor dCell = Tensor.empty(DType.FLOAT32, b, h);
        float[] gr = g.storage.f();
        float[] a = activated.storage.f();
        float[] t = tanhCell.storage.f();
        float[] cp = c.storage.f();
        float[] dg = dGates.storage.f();
        float[] dc = dCell.storage.f();
        for (int r = 0; r < b; r++) {
            int gr0 = r * 2 * h;
            int ar = r * 4 * h;
            int hr = r * h;
            int cr = r * h;
            for (int j = 0; j < h; j++) {
                float dh = gr[gr0 + j];
                float i = a[ar + j];
                float f = a[ar + h + j];
                float gg = a[ar + 2 * h + j];
                float o = a[ar + 3 * h + j];
                float tc = t[hr + j];
                float dNew = gr[gr0 + h + j] + dh * o * (1 - tc * tc);
                dg[ar + j] = dNew * gg * i * (1 - i);
                dg[ar + h + j] = dNew * cp[cr + j] * f * (1 - f);
                dg[ar + 2 * h + j] = dNew * i * (1 - gg * gg);
                dg[ar + 3 * h + j] = dh * tc * o * (1 - o);
                dc[hr + j] = dNew * f;
            }
        }
        return new Tensor[] {dGates, dCell};
    }

    /** Row-major from offset 0, as the loops index it. */
    private static Tensor dense(Tensor t) {
        return t.isContiguous() && t.offset == 0 ? t : t.clone();
    }

    private static void check(Tensor gates, Tensor cell, int b, int h) {
        if (gates.dtype() != DType.FLOAT32 || cell.dtype() != DType.FLOAT32 || gates.dim() != 2 || cell.dim() != 2
                || gates.size(1) != 4 * h || cell.size(0) != b) {
            throw new ShapeException("lstm cell: expected float32 gates (B, 4H) and cell (B, H), got " + gates.dtype() + " "
                    + Shape.str(gates.shape()) + " and " + cell.dtype() + " " + Shape.str(cell.shape()));
        }
    }
}
