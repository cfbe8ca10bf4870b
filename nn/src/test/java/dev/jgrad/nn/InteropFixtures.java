package dev.jgrad.nn;

import dev.jgrad.nn.io.Json;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The interop fixtures (models PyTorch trained, with their inputs and outputs): read from the test resources, or
 * from JGRAD_INTEROP_DIR when that is set, and compared with PyTorch's values.
 */
public final class InteropFixtures {
    private InteropFixtures() {
    }

    public static byte[] fixture(String name) throws IOException {
        String dir = System.getenv("JGRAD_INTEROP_DIR");
        if (dir != null && !dir.isEmpty()) {
            return Files.readAllBytes(Path.of(dir, name));
        }
        try (InputStream in = InteropFixtures.class.getResourceAsStream("/interop/" + name)) {
            if (in == null) {
                throw new IOException("missing test fixture /interop/" + name);
            }
            return in.readAllBytes();
        }
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> json(String name) throws IOException {
        return (Map<String, Object>) Json.parse(new String(fixture(name), StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    public static Tensor tensor(Object spec) {
        Map<String, Object> m = (Map<String, Object>) spec;
        List<Object> shapeList = (List<Object>) m.get("shape");
        int[] shape = new int[shapeList.size()];
        for (int i = 0; i < shape.length; i++) {
            shape[i] = ((Number) shapeList.get(i)).intValue();
        }
        List<Object> data = (List<Object>) m.get("data");
        DType dtype = DType.parse((String) m.get("dtype"));
        double[] v = new double[data.size()];
        for (int i = 0; i < v.length; i++) {
            Object o = data.get(i);
            v[i] = o instanceof Boolean ? ((Boolean) o ? 1 : 0) : ((Number) o).doubleValue();
        }
        return Tensor.fromDoubles(v, dtype, shape);
    }

    public static void assertClose(Tensor expected, Tensor got) {
        assertClose(expected, got, 1e-4, 1e-5);
    }

    /** Element by element, {@code |got - expected| <= atol + rtol |expected|}. */
    public static void assertClose(Tensor expected, Tensor got, double rtol, double atol) {
        assertArrayEquals(expected.shape(), got.shape());
        double[] e = expected.toDoubleArray();
        double[] g = got.toDoubleArray();
        for (int i = 0; i < e.length; i++) {
            assertTrue(Math.abs(g[i] - e[i]) <= atol + rtol * Math.abs(e[i]), "element " + i + ": got " + g[i] + ", PyTorch " + e[i]);
        }
    }
}
