package dev.jgrad.examples.conformance;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Tensors to and from the corpus's value objects: {@code {"dtype", "shape", "data"}}, floats possibly "nan"/"inf"/"-inf". */
final class Values {
    private Values() {
    }

    static Tensor read(Map<String, Object> v) {
        DType dtype = DType.parse(String.valueOf(v.getOrDefault("dtype", "float32")));
        int[] shape = ints(v.get("shape"));
        List<?> data = (List<?>) v.get("data");
        double[] d = new double[data.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = number(data.get(i));
        }
        if (dtype == DType.INT64) {
            long[] l = new long[data.size()];
            for (int i = 0; i < l.length; i++) {
                Object o = data.get(i);
                l[i] = o instanceof Number ? ((Number) o).longValue() : (long) d[i];
            }
            return Tensor.of(l, shape);
        }
        return Tensor.fromDoubles(d, dtype, shape);
    }

    static double number(Object o) {
        if (o instanceof Boolean) {
            return (Boolean) o ? 1 : 0;
        }
        if (o instanceof Number) {
            return ((Number) o).doubleValue();
        }
        switch (String.valueOf(o)) {
            case "nan": return Double.NaN;
            case "inf": return Double.POSITIVE_INFINITY;
            case "-inf": return Double.NEGATIVE_INFINITY;
            default: throw new IllegalArgumentException("not a number: " + o);
        }
    }

    static int[] ints(Object o) {
        List<?> l = (List<?>) o;
        int[] r = new int[l.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = ((Number) l.get(i)).intValue();
        }
        return r;
    }

    static Map<String, Object> write(Tensor t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("dtype", t.dtype().pyName());
        List<Object> shape = new ArrayList<>();
        for (int s : t.shape()) {
            shape.add(s);
        }
        m.put("shape", shape);
        List<Object> data = new ArrayList<>();
        switch (t.dtype()) {
            case BOOL:
                for (boolean b : t.toBooleanArray()) {
                    data.add(b);
                }
                break;
            case INT64:
                for (long l : t.toLongArray()) {
                    data.add(l);
                }
                break;
            default:
                for (double d : t.toDoubleArray()) {
                    data.add(Double.isNaN(d) ? "nan" : Double.isInfinite(d) ? (d > 0 ? "inf" : "-inf") : (Object) d);
                }
        }
        m.put("data", data);
        return m;
    }
}
