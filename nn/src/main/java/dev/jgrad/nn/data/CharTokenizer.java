package dev.jgrad.nn.data;

import dev.jgrad.nn.io.AtomicFile;
import dev.jgrad.nn.io.BoundedFiles;
import dev.jgrad.nn.io.Json;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A character-level tokenizer as nanoGPT's {@code shakespeare_char/prepare.py}: the vocabulary is the sorted set of the
 * text's characters (Unicode code points), a token is a character's position in it. Saved as
 * {@code {"format": "jgrad-char-tokenizer/1", "chars": "..."}}.
 */
public final class CharTokenizer {
    private static final String FORMAT = "jgrad-char-tokenizer/1";
    private final int[] chars;
    private final Map<Integer, Integer> index = new LinkedHashMap<>();

    private CharTokenizer(int[] chars) {
        this.chars = chars;
        for (int i = 0; i < chars.length; i++) {
            index.put(chars[i], i);
        }
    }

    /** The vocabulary of {@code text}: its distinct characters, sorted. */
    public static CharTokenizer fromText(String text) {
        TreeSet<Integer> set = new TreeSet<>();
        text.codePoints().forEach(set::add);
        return new CharTokenizer(set.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The number of characters in the vocabulary. */
    public int vocabSize() {
        return chars.length;
    }

    /** The tokens of {@code text}; a character outside the vocabulary is an error that names it. */
    public long[] encode(String text) {
        int[] cps = text.codePoints().toArray();
        long[] out = new long[cps.length];
        for (int i = 0; i < cps.length; i++) {
            Integer t = index.get(cps[i]);
            if (t == null) {
                throw new IllegalArgumentException("the character " + describe(cps[i]) + " (at " + i + ") is not in the vocabulary of "
                        + chars.length + " characters this model was trained on");
            }
            out[i] = t;
        }
        return out;
    }

    /** The text of {@code tokens}. */
    public String decode(long... tokens) {
        StringBuilder sb = new StringBuilder();
        for (long t : tokens) {
            if (t < 0 || t >= chars.length) {
                throw new IllegalArgumentException("token " + t + " is outside the vocabulary of " + chars.length);
            }
            sb.appendCodePoint(chars[(int) t]);
        }
        return sb.toString();
    }

    /** Whether the vocabulary holds the character {@code codePoint}. */
    public boolean contains(int codePoint) {
        return index.containsKey(codePoint);
    }

    /** Writes the vocabulary to {@code path} atomically. */
    public void save(Path path) throws IOException {
        AtomicFile.writeString(path, toJson());
    }

    /** The text {@link #save} writes. */
    public String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("format", FORMAT);
        m.put("chars", new String(chars, 0, chars.length));
        return Json.writePretty(m);
    }

    /** Reads a vocabulary {@link #save} wrote; a file of another form is an IOException that says what is wrong. */
    public static CharTokenizer load(Path path) throws IOException {
        Object o;
        try {
            o = Json.parse(BoundedFiles.readUtf8(path, 16 << 20, "tokenizer"));
        } catch (IllegalArgumentException e) {
            throw new IOException(path + ": not a tokenizer file (" + e.getMessage() + ")");
        }
        if (!(o instanceof Map) || !FORMAT.equals(((Map<?, ?>) o).get("format")) || !(((Map<?, ?>) o).get("chars") instanceof String)) {
            throw new IOException(path + ": not a tokenizer file (expected {\"format\": \"" + FORMAT + "\", \"chars\": \"...\"})");
        }
        int[] cps = ((String) ((Map<?, ?>) o).get("chars")).codePoints().toArray();
        int[] sorted = cps.clone();
        Arrays.sort(sorted);
        if (cps.length == 0 || !Arrays.equals(cps, sorted) || Arrays.stream(cps).distinct().count() != cps.length) {
            throw new IOException(path + ": the tokenizer's characters must be distinct, sorted and at least one");
        }
        return new CharTokenizer(cps);
    }

    private static String describe(int cp) {
        return cp == '\n' ? "'\\n'" : cp < 32 ? String.format("U+%04X", cp) : "'" + new String(Character.toChars(cp)) + "'";
    }

    /** The characters, in token order. */
    public List<Integer> characters() {
        return Arrays.stream(chars).boxed().toList();
    }
}
