package dev.jgrad.nn.data;

import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CSV tables as tensors, and the file, line and column named for everything that is not a number. */
class CsvTest {
    @TempDir
    Path tmp;

    private Path write(String name, String text) throws IOException {
        Path f = tmp.resolve(name);
        Files.writeString(f, text, StandardCharsets.UTF_8);
        return f;
    }

    private String refusal(String text) throws IOException {
        Path f = write("bad.csv", text);
        return assertThrows(IOException.class, () -> Csv.read(f)).getMessage();
    }

    @Test
    void aHeaderNamesTheColumnsAndColumnsComeInTheOrderAsked() throws IOException {
        Csv.Table t = Csv.read(write("houses.csv", "sqft,rooms,price\n1200,3,250.5\n800,2,1.5e2\n-3,.5,+7\n"));
        assertEquals(List.of("sqft", "rooms", "price"), t.header());
        assertEquals(3, t.rows());
        assertArrayEquals(new int[] {3, 3}, t.values().shape());
        assertArrayEquals(new float[] {1200, 3, 250.5f, 800, 2, 150, -3, 0.5f, 7}, t.values().toFloatArray());
        Tensor x = t.columns("price", "sqft");
        assertArrayEquals(new int[] {3, 2}, x.shape());
        assertArrayEquals(new float[] {250.5f, 1200, 150, 800, 7, -3}, x.toFloatArray());
        assertArrayEquals(new int[] {3, 1}, t.columns("price").shape());
        assertArrayEquals(new float[] {3, 2, 0.5f}, t.column("rooms").toFloatArray());
        assertEquals("the table has no column 'age'; it has [sqft, rooms, price]",
                assertThrows(IllegalArgumentException.class, () -> t.column("age")).getMessage());
    }

    @Test
    void aFileOfNumbersHasNumberedColumns() throws IOException {
        Csv.Table t = Csv.read(write("plain.csv", "1,2\n3,4"));
        assertEquals(List.of("0", "1"), t.header());
        assertArrayEquals(new float[] {1, 2, 3, 4}, t.values().toFloatArray());
        Csv.Table named = Csv.read(write("forced.csv", "1,2\n3,4\n"), ',', true);
        assertEquals(List.of("1", "2"), named.header());
        assertEquals(1, named.rows());
    }

    @Test
    void quotesCrlfBlankLinesAByteOrderMarkAndSemicolons() throws IOException {
        Csv.Table t = Csv.read(write("excel.csv", "\uFEFF\"area, m2\";\"the \"\"label\"\"\"\r\n\r\n\"12.5\";1\r\n3;\"4\" \r\n"), ';', null);
        assertEquals(List.of("area, m2", "the \"label\""), t.header());
        assertArrayEquals(new float[] {12.5f, 1, 3, 4}, t.values().toFloatArray());
    }

    /** More values than one of the reader's blocks holds (65,536), each where it belongs. */
    @Test
    void aLargeTableKeepsEveryValueInPlace() throws IOException {
        StringBuilder sb = new StringBuilder();
        int rows = 301;
        int cols = 257;
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                sb.append(c == 0 ? "" : ",").append(r * cols + c);
            }
            sb.append('\n');
        }
        Csv.Table t = Csv.read(write("large.csv", sb.toString()));
        assertArrayEquals(new int[] {rows, cols}, t.values().shape());
        float[] v = t.values().toFloatArray();
        for (int i = 0; i < v.length; i++) {
            assertEquals(i, v[i], "value " + i);
        }
    }

    @Test
    void numbersAreWhatCsvFilesWriteNotWhatJavaParses() {
        for (String yes : List.of("0", "-3", "+7", "5.", ".5", "1.25e-3", "1E+10", "6e7", "nan", "-NaN", "inf", "-Infinity")) {
            assertTrue(dev.jgrad.nn.io.DecimalText.isNumber(yes), yes);
        }
        for (String no : List.of("", "+", "-", ".", "e5", "1e", "1e+", "1.5f", "2d", "0x10", "1_000", "1,5", "\u0661", "infinit", "na", "1 2")) {
            assertTrue(!dev.jgrad.nn.io.DecimalText.isNumber(no), no);
        }
    }

    @Test
    void nanAndInfinityAreWrittenOut() throws IOException {
        float[] v = Csv.read(write("nan.csv", "a,b,c\nnan,-inf,Infinity\n")).values().toFloatArray();
        assertTrue(Float.isNaN(v[0]));
        assertEquals(Float.NEGATIVE_INFINITY, v[1]);
        assertEquals(Float.POSITIVE_INFINITY, v[2]);
    }

    @Test
    void whatIsNotANumberIsNamedByLineAndColumn() throws IOException {
        assertTrue(refusal("age,city\n31,4\n40,Paris\n").endsWith("bad.csv, line 3, column 'city': 'Paris' is not a number"
                + " (every value must be a number; write nan for a missing one)"), refusal("age,city\n31,4\n40,Paris\n"));
        assertTrue(refusal("age,income\n31,\n").contains("line 2, column 'income': an empty field"));
        assertTrue(refusal("a,b\n1.5f,2\n").contains("'1.5f' is not a number"), "Java's float suffix is not CSV");
        assertTrue(refusal("a,b,c\n1,2,3\n4,5\n").contains("line 3: 2 field(s) where the header has 3"));
        assertTrue(refusal("a;b\n1;2\n").endsWith("'1;2' is not a number (a delimiter other than ','? pass it to Csv.read)"),
                refusal("a;b\n1;2\n"));
        assertTrue(refusal("a,b\n\"1,2\n").contains("line 2: a quoted field that never closes"));
        assertTrue(refusal("a,b\n\"1\"x,2\n").contains("text after a quoted field's closing quote"));
        assertTrue(refusal("x".repeat(Csv.MAX_FIELD + 1)).contains("a field longer than"));
        assertTrue(refusal("").contains("no rows"));
        assertTrue(refusal("a,b\n").contains("a header and no rows"));
    }

    @Test
    void filesThatAreNotTablesAreRefused() throws IOException {
        Path latin1 = tmp.resolve("latin1.csv");
        Files.write(latin1, new byte[] {'a', ',', 'b', '\n', '1', ',', (byte) 0xE9, '\n'});
        assertTrue(assertThrows(IOException.class, () -> Csv.read(latin1)).getMessage().contains("not UTF-8"));
        assertThrows(NoSuchFileException.class, () -> Csv.read(tmp.resolve("missing.csv")));
        assertTrue(assertThrows(IOException.class, () -> Csv.read(tmp)).getMessage().contains("not a regular file"));
        assertThrows(IllegalArgumentException.class, () -> Csv.read(latin1, '"', null));
    }
}
