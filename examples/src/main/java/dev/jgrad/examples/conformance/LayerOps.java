package dev.jgrad.examples.conformance;

import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Convolution;
import dev.jgrad.nn.Normalization;
import dev.jgrad.nn.Pooling;
import dev.jgrad.nn.Recurrent;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The corpus ops of the layers small models are built from: convolution, pooling, batch and group norm, pad, LSTM and GRU. */
final class LayerOps {
    private LayerOps() {
    }

    static Map<String, CoreOps.Handler> table() {
        Map<String, CoreOps.Handler> t = new HashMap<>();
        t.put("conv1d", s -> Convolution.conv1d(s.var(0), s.var(1), optional(s, 2),
                pair(s, "stride", 1, 1)[0], pair(s, "padding", 0, 1)[0], pair(s, "dilation", 1, 1)[0], s.integer("groups", 1)));
        t.put("conv2d", s -> Convolution.conv2d(s.var(0), s.var(1), optional(s, 2),
                pair(s, "stride", 1, 2), pair(s, "padding", 0, 2), pair(s, "dilation", 1, 2), s.integer("groups", 1)));
        t.put("max_pool1d", s -> Pooling.maxPool1d(s.var(0), pair(s, "kernel_size", 0, 1)[0], pair(s, "stride", 0, 1)[0],
                pair(s, "padding", 0, 1)[0], pair(s, "dilation", 1, 1)[0], s.flag("ceil_mode", false)));
        t.put("max_pool2d", s -> Pooling.maxPool2d(s.var(0), pair(s, "kernel_size", 0, 2), pair(s, "stride", 0, 2),
                pair(s, "padding", 0, 2), pair(s, "dilation", 1, 2), s.flag("ceil_mode", false)));
        t.put("avg_pool2d", s -> Pooling.avgPool2d(s.var(0), pair(s, "kernel_size", 0, 2), pair(s, "stride", 0, 2),
                pair(s, "padding", 0, 2), s.flag("ceil_mode", false), s.flag("count_include_pad", true)));
        t.put("adaptive_avg_pool2d", s -> {
            int[] o = pair(s, "output_size", 0, 2);
            return Pooling.adaptiveAvgPool2d(s.var(0), o[0], o[1]);
        });
        t.put("batch_norm", s -> Normalization.batchNorm(s.var(0),
                s.isAbsent(1) ? null : s.tensor(1), s.isAbsent(2) ? null : s.tensor(2), optional(s, 3), optional(s, 4),
                s.flag("training", false), s.real("momentum", 0.1), s.real("eps", 1e-5)));
        t.put("group_norm", s -> Normalization.groupNorm(s.var(0), s.integer("num_groups"), optional(s, 1), optional(s, 2),
                s.real("eps", 1e-5)));
        t.put("pad", s -> s.var(0).pad(s.ints("pad"), s.real("value", 0.0)));
        t.put("lstm", LayerOps::lstm);
        t.put("gru", LayerOps::gru);
        return t;
    }

    private static Variable optional(Step s, int i) {
        return s.isAbsent(i) ? null : s.var(i);
    }

    /** An int or a list of {@code k} ints, as PyTorch's {@code _pair}; {@code dflt} where absent. */
    private static int[] pair(Step s, String key, int dflt, int k) {
        int[] v = s.dims(key);
        if (v == null) {
            v = new int[] {dflt};
        }
        if (v.length == 1 && k > 1) {
            int[] r = new int[k];
            Arrays.fill(r, v[0]);
            return r;
        }
        if (v.length != k) {
            throw new IllegalArgumentException(s.op + ": " + key + " needs 1 or " + k + " values, got " + Arrays.toString(v));
        }
        return v;
    }

    /** {@code nn.LSTM(batch_first=True)}, one layer: h0 and c0 are {@code (1, B, H)}, as are the reported h_n and c_n. */
    private static Object lstm(Step s) {
        Recurrent.State r = Recurrent.lstm(s.var(0), layer(s.var(1)), layer(s.var(2)), s.var(3), s.var(4), optional(s, 5), optional(s, 6));
        return List.of(r.output(), r.hidden().unsqueeze(0), r.cell().unsqueeze(0));
    }

    private static Object gru(Step s) {
        Recurrent.State r = Recurrent.gru(s.var(0), layer(s.var(1)), s.var(2), s.var(3), optional(s, 4), optional(s, 5));
        return List.of(r.output(), r.hidden().unsqueeze(0));
    }

    private static Variable layer(Variable state) {
        if (state.dim() != 3 || state.size(0) != 1) {
            throw new IllegalArgumentException("expected a (num_layers = 1, B, H) state, got " + Arrays.toString(state.shape()));
        }
        return state.squeeze(0);
    }
}
