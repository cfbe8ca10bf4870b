package dev.jgrad.nn.onnx;

import java.util.List;

/**
 * A number the forward computed from the size of a dynamic axis: {@code scale * (product of the symbols' sizes) + offset}
 * ({@code T}, {@code B * T}, {@code T - 1}), found by comparing traces made at different sizes. With no symbols it is a
 * constant.
 */
record SymbolicInt(long scale, long offset, List<String> symbols) {
    static SymbolicInt constant(long value) {
        return new SymbolicInt(0, value, List.of());
    }

    boolean isConstant() {
        return symbols.isEmpty();
    }

    /**
     * The expression that gives {@code values[k]} in trace k, where trace 0 has every symbol at its base size and trace
     * k (1..) has symbol k-1 alone changed; null where no such expression with whole numbers fits.
     */
    static SymbolicInt fit(long[] values, List<String> symbols, long[] base, long[] varied) {
        java.util.List<String> depends = new java.util.ArrayList<>();
        long product0 = 1;
        for (int k = 1; k < values.length; k++) {
            if (values[k] != values[0]) {
                depends.add(symbols.get(k - 1));
                product0 *= base[k - 1];
            }
        }
        if (depends.isEmpty()) {
            return constant(values[0]);
        }
        Long scale = null;
        for (int k = 1; k < values.length; k++) {
            if (values[k] == values[0]) {
                continue;
            }
            long productK = product0 / base[k - 1] * varied[k - 1];
            long dv = values[k] - values[0];
            long dp = productK - product0;
            if (dp == 0 || dv % dp != 0) {
                return null;
            }
            long s = dv / dp;
            if (scale != null && scale != s) {
                return null;
            }
            scale = s;
        }
        return new SymbolicInt(scale, values[0] - scale * product0, List.copyOf(depends));
    }

    /** The expression written out: {@code 2*batch*sequence-1}. */
    @Override
    public String toString() {
        if (isConstant()) {
            return Long.toString(offset);
        }
        StringBuilder b = new StringBuilder(scale == 1 ? "" : scale + "*");
        b.append(String.join("*", symbols));
        if (offset != 0) {
            b.append(offset > 0 ? "+" : "").append(offset);
        }
        return b.toString();
    }
}
