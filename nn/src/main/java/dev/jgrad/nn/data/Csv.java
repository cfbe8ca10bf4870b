package dev.jgrad.nn.data;

import dev.jgrad.nn.io.BoundedFiles;
import dev.jgrad.nn.io.DecimalText;
import dev.jgrad.tensor.Tensor;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Numeric tables from CSV files, as {@code np.loadtxt} or {@code pd.read_csv(...).to_numpy()} would give them: one float32
 * value per field, a header row of column names when the first row is not numbers, fields in double quotes where they
 * need to be (RFC 4180). Anything that is not a number is refused with the file, line and column, never read as NaN
 * (write {@code nan} where a value is meant to be missing); so are rows of another length than the first.
 * <pre>{@code
 * Csv.Table t = Csv.read(Path.of("houses.csv"));
 * Tensor x = t.columns("sqft", "rooms");   // (N, 2)
 * Tensor y = t.columns("price");           // (N, 1), as a (N, 1) prediction needs
 * }</pre>
 */
public final class Csv {
    /** The most characters one field may have: a line without separators is not a table. */
    static final int MAX_FIELD = 1 << 12;
    /** The most columns a table may have. */
    static final int MAX_COLUMNS = 1 << 16;

    private Csv() {
    }

    /** The table in {@code file}, comma-separated, its header (if any) detected from the first row. */
    public static Table read(Path file) throws IOException {
        return read(file, ',', null);
    }

    /**
     * The table in {@code file}, its fields separated by {@code delimiter}; {@code header} true or false says whether the
     * first row names the columns, null detects it (a first row with anything but numbers is a header). The file may
     * hold at most a quarter of the Java heap, as each of its values takes four bytes here and two or more in the file.
     */
    public static Table read(Path file, char delimiter, Boolean header) throws IOException {
        if (delimiter == '"' || delimiter == '\n' || delimiter == '\r') {
            throw new IllegalArgumentException("a CSV delimiter cannot be a quote or a line break, got " + printable(delimiter));
        }
        long size = BoundedFiles.regularFileSize(file, "CSV file");
        long budget = Runtime.getRuntime().maxMemory() / 4;
        if (size > budget) {
            throw new IOException(file + ": " + size + " bytes is more than a quarter of the Java heap (" + budget
                    + " bytes); raise -Xmx or read the file in parts");
        }
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try (Reader in = new java.io.InputStreamReader(Files.newInputStream(file), decoder)) {
            return new Parser(file, in, delimiter).table(header);
        } catch (CharacterCodingException e) {
            throw new IOException(file + ": not UTF-8 text (" + e.getMessage() + ")");
        }
    }

    private static String printable(char c) {
        return c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : "'" + c + "'";
    }

    /** A table of numbers with named (or numbered) columns. */
    public static final class Table {
        private final List<String> header;
        private final Map<String, Integer> index = new LinkedHashMap<>();
        private final Tensor values;

        Table(List<String> header, Tensor values) {
            this.header = Collections.unmodifiableList(header);
            this.values = values;
            for (int i = 0; i < header.size(); i++) {
                index.putIfAbsent(header.get(i), i);
            }
        }

        /** The column names: the header row's, or "0", "1", ... where the file has none. */
        public List<String> header() {
            return header;
        }

        /** The number of rows (the header not counted). */
        public int rows() {
            return values.size(0);
        }

        /** Every value, float32 {@code (rows, columns)}. */
        public Tensor values() {
            return values;
        }

        /** The named columns, float32 {@code (rows, names.length)}, in the order named. */
        public Tensor columns(String... names) {
            long[] at = new long[names.length];
            for (int i = 0; i < names.length; i++) {
                at[i] = position(names[i]);
            }
            return values.indexSelect(1, Tensor.of(at, at.length)).contiguous();
        }

        /** One column, float32 {@code (rows,)}: class labels, say, with {@code .to(DType.INT64)}. */
        public Tensor column(String name) {
            return values.select(1, position(name)).contiguous();
        }

        private int position(String name) {
            Integer i = index.get(name);
            if (i == null) {
                throw new IllegalArgumentException("the table has no column '" + name + "'; it has " + header);
            }
            return i;
        }
    }

    /** Reads fields and rows, counting lines for messages. */
    private static final class Parser {
        private final Path file;
        private final Reader in;
        private final char delimiter;
        private final StringBuilder field = new StringBuilder();
        private final char[] buffer = new char[1 << 16];
        private int pos;
        private int len;
        private int line = 1;
        private int pushed = -2;

        Parser(Path file, Reader in, char delimiter) {
            this.file = file;
            this.in = in;
            this.delimiter = delimiter;
        }

        Table table(Boolean header) throws IOException {
            int bom = next();
            if (bom != '\uFEFF') {
                push(bom);
            }
            int firstLine = skipBlankLines();
            List<String> first = row();
            if (first == null) {
                throw new IOException(file + ": no rows (an empty file is not a table)");
            }
            boolean named = header != null ? header : !allNumbers(first);
            List<String> names = new ArrayList<>();
            int columns = first.size();
            FloatBlocks data = new FloatBlocks();
            if (named) {
                names.addAll(first);
            } else {
                for (int i = 0; i < columns; i++) {
                    names.add(Integer.toString(i));
                }
                add(data, first, firstLine, names);
            }
            int rows = named ? 0 : 1;
            while (true) {
                int at = skipBlankLines();
                List<String> r = row();
                if (r == null) {
                    break;
                }
                if (r.size() != columns) {
                    throw new IOException(file + ", line " + at + ": " + r.size() + " field(s) where the " + (named ? "header has " : "first row has ")
                            + columns + " (a delimiter other than " + printable(delimiter) + "? pass it to Csv.read)");
                }
                add(data, r, at, names);
                rows++;
            }
            if (rows == 0) {
                throw new IOException(file + ": a header and no rows of numbers");
            }
            return new Table(names, Tensor.of(data.toArray(), rows, columns));
        }

        private void add(FloatBlocks data, List<String> r, int at, List<String> names) throws IOException {
            for (int c = 0; c < r.size(); c++) {
                String s = r.get(c).strip();
                if (!DecimalText.isNumber(s)) {
                    boolean otherDelimiter = s.matches(".*[;\t|,].*");
                    throw new IOException(file + ", line " + at + ", column '" + names.get(c) + "': " + (s.isEmpty() ? "an empty field"
                            : "'" + s + "' is not a number") + (otherDelimiter ? " (a delimiter other than " + printable(delimiter)
                            + "? pass it to Csv.read)" : " (every value must be a number; write nan for a missing one)"));
                }
                data.add(DecimalText.parseFloat(s));
            }
        }

        private static boolean allNumbers(List<String> r) {
            for (String s : r) {
                if (!DecimalText.isNumber(s.strip())) {
                    return false;
                }
            }
            return true;
        }

        /** Skips empty lines; returns the number of the line the next row starts on. */
        private int skipBlankLines() throws IOException {
            while (true) {
                int c = next();
                if (c == '\n') {
                    line++;
                } else if (c != '\r') {
                    push(c);
                    return line;
                }
            }
        }

        /** The fields of the next row, or null at the end of the file. */
        private List<String> row() throws IOException {
            int c = next();
            if (c < 0) {
                return null;
            }
            push(c);
            List<String> fields = new ArrayList<>();
            while (true) {
                field.setLength(0);
                c = next();
                if (c == '"') {
                    c = quoted();
                } else {
                    while (c >= 0 && c != delimiter && c != '\n' && c != '\r') {
                        append(c);
                        c = next();
                    }
                }
                fields.add(field.toString());
                if (fields.size() > MAX_COLUMNS) {
                    throw new IOException(file + ", line " + line + ": more than " + MAX_COLUMNS + " fields in a row");
                }
                if (c != delimiter) {
                    if (c == '\r') {
                        int n = next();
                        if (n != '\n') {
                            push(n);
                        }
                    }
                    line++;
                    return fields;
                }
            }
        }

        /** A field in double quotes ("" is a quote); returns the character after it. */
        private int quoted() throws IOException {
            int start = line;
            while (true) {
                int c = next();
                if (c < 0) {
                    throw new IOException(file + ", line " + start + ": a quoted field that never closes");
                }
                if (c == '"') {
                    int n = next();
                    if (n != '"') {
                        while (n == ' ' || n == '\t') {
                            n = next();
                        }
                        if (n >= 0 && n != delimiter && n != '\n' && n != '\r') {
                            throw new IOException(file + ", line " + line + ": text after a quoted field's closing quote");
                        }
                        return n;
                    }
                }
                if (c == '\n') {
                    line++;
                }
                append(c);
            }
        }

        private void append(int c) throws IOException {
            if (field.length() >= MAX_FIELD) {
                throw new IOException(file + ", line " + line + ": a field longer than " + MAX_FIELD + " characters (is this a CSV table?)");
            }
            field.append((char) c);
        }

        private int next() throws IOException {
            if (pushed != -2) {
                int c = pushed;
                pushed = -2;
                return c;
            }
            if (pos == len) {
                // Blocks of our own: a Reader's read() of one character takes a lock each call.
                len = in.read(buffer, 0, buffer.length);
                pos = 0;
                if (len <= 0) {
                    len = 0;
                    return -1;
                }
            }
            return buffer[pos++];
        }

        private void push(int c) {
            pushed = c;
        }
    }

    /** Floats in blocks, so a large table is never copied while it grows. */
    private static final class FloatBlocks {
        private static final int BLOCK = 1 << 16;
        private final List<float[]> blocks = new ArrayList<>();
        private long count;

        void add(float v) throws IOException {
            if (count == Integer.MAX_VALUE - 8) {
                throw new IOException("a CSV table of more than " + (Integer.MAX_VALUE - 8) + " values is more than one tensor holds");
            }
            int at = (int) (count % BLOCK);
            if (at == 0) {
                blocks.add(new float[BLOCK]);
            }
            blocks.get(blocks.size() - 1)[at] = v;
            count++;
        }

        float[] toArray() {
            float[] out = new float[(int) count];
            for (int b = 0; b < blocks.size(); b++) {
                int from = b * BLOCK;
                System.arraycopy(blocks.get(b), 0, out, from, (int) Math.min(BLOCK, count - from));
            }
            return out;
        }
    }
}
