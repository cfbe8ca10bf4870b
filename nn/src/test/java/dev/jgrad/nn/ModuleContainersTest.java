package dev.jgrad.nn;

import dev.jgrad.tensor.Generator;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ModuleList and ModuleDict: PyTorch's names in a state dict, Python's indexing, and errors that name what was asked. */
class ModuleContainersTest {
    private static Linear linear(int in, int out, long seed) {
        return new Linear(in, out, true, new Generator(seed));
    }

    @Test
    void aModuleListNamesItsModulesByIndexAsPyTorchDoes() {
        Linear a = linear(3, 4, 1);
        Linear b = linear(4, 5, 2);
        ModuleList list = new ModuleList(List.of(a, b));
        assertEquals(List.of("0.weight", "0.bias", "1.weight", "1.bias"), List.copyOf(list.stateDict().keySet()));
        assertEquals(2, list.size());
        assertEquals(3 * 4 + 4 + 4 * 5 + 5, list.parameterCount());
        assertSame(b, list.get(1));
        assertSame(b, list.get(-1));
        assertSame(a, list.get(-2));
        int seen = 0;
        for (Module m : list) {
            assertSame(seen == 0 ? a : b, m);
            seen++;
        }
        assertEquals(2, seen);
    }

    @Test
    void aModuleListRefusesIndicesOutsideItAndNullModules() {
        ModuleList list = new ModuleList(linear(2, 2, 1), linear(2, 3, 2), linear(3, 1, 3));
        assertEquals("index 3 is out of range for a ModuleList of 3",
                assertThrows(IndexOutOfBoundsException.class, () -> list.get(3)).getMessage());
        assertEquals("index -4 is out of range for a ModuleList of 3",
                assertThrows(IndexOutOfBoundsException.class, () -> list.get(-4)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> list.add(null));
        assertThrows(UnsupportedOperationException.class, () -> {
            var it = list.iterator();
            it.next();
            it.remove();
        });
        assertEquals(3, list.size());
    }

    @Test
    void aModuleDictKeepsTheOrderItWasGivenAndNamesItsModulesByKey() {
        Map<String, Linear> layers = new LinkedHashMap<>();
        layers.put("encoder", linear(3, 4, 1));
        layers.put("decoder", linear(4, 3, 2));
        ModuleDict dict = new ModuleDict(layers);
        assertEquals(List.of("encoder.weight", "encoder.bias", "decoder.weight", "decoder.bias"),
                List.copyOf(dict.stateDict().keySet()));
        assertEquals(2, dict.size());
        assertTrue(dict.containsKey("decoder"));
        assertFalse(dict.containsKey("head"));
        assertSame(layers.get("encoder"), dict.get("encoder"));
        assertEquals(List.of("encoder", "decoder"), List.copyOf(dict.asMap().keySet()));
        assertThrows(UnsupportedOperationException.class, () -> dict.asMap().remove("encoder"));
    }

    @Test
    void aModuleDictNamesWhatItHasWhenAskedForWhatItLacks() {
        ModuleDict dict = new ModuleDict();
        dict.put("encoder", linear(3, 4, 1));
        assertEquals("ModuleDict has no module 'head'; it has [encoder]",
                assertThrows(IllegalArgumentException.class, () -> dict.get("head")).getMessage());
        assertEquals("'encoder' is already registered in ModuleDict",
                assertThrows(IllegalArgumentException.class, () -> dict.put("encoder", linear(3, 4, 2))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> dict.put("a.b", linear(3, 4, 2))).getMessage().contains("'.'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> dict.put("x", null)).getMessage().contains("null"));
        assertEquals(1, dict.size(), "refused modules are not added");
    }
}
