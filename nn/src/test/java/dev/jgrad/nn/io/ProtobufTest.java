package dev.jgrad.nn.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The protobuf wire format, against bytes protoc's encoder gives for the same fields. */
class ProtobufTest {
    private static String hex(ProtoWriter w) {
        return HexFormat.of().formatHex(w.toByteArray());
    }

    @Test
    void fieldsAreEncodedAsProtobufEncodesThem() {
        // int64 150 in field 1 is protobuf's own example: 08 96 01.
        assertEquals("089601", hex(new ProtoWriter().varint(1, 150)));
        // A negative int32/int64 takes ten bytes.
        assertEquals("10ffffffffffffffffff01", hex(new ProtoWriter().varint(2, -1)));
        assertEquals("1a0774657374696e67", hex(new ProtoWriter().string(3, "testing")));
        assertEquals("21000000000000f83f", hex(new ProtoWriter().float64(4, 1.5)));
        assertEquals("2d0000c03f", hex(new ProtoWriter().float32(5, 1.5f)));
        assertEquals("3206038e029ea705", hex(new ProtoWriter().packedVarint(6, new long[] {3, 270, 86942})));
        assertEquals("3a08000000000000f03f", hex(new ProtoWriter().packedFloat64(7, new double[] {1})));
        assertEquals("", hex(new ProtoWriter().packedFloat64(7, new double[0])), "an empty packed field is left out");
        assertEquals("4203089601", hex(new ProtoWriter().message(8, new ProtoWriter().varint(1, 150))));
        assertEquals("c83e01", hex(new ProtoWriter().bool(1001, true)), "a field number past 15 takes a two-byte key");
        assertThrows(IllegalArgumentException.class, () -> new ProtoWriter().varint(0, 1));
    }

    @Test
    void whatIsWrittenReadsBack() {
        ProtoWriter w = new ProtoWriter().varint(1, -5).string(2, "h\u00e9").float64(3, Math.PI).float32(4, 2.5f)
                .message(5, new ProtoWriter().varint(1, 7)).message(5, new ProtoWriter().varint(1, 8))
                .packedFloat64(6, new double[] {1, -2.5});
        ProtoReader r = ProtoReader.parse(w.toByteArray());
        assertEquals(-5, r.varint(1, 0));
        assertEquals("h\u00e9", r.string(2));
        assertEquals(Math.PI, r.float64(3, 0));
        assertEquals(2.5f, r.float32(4, 0));
        assertEquals(2, r.all(5).size());
        assertEquals(8, r.message(5).varint(1, 0), "a repeated field read as one is its last value");
        assertArrayEquals(new double[] {1, -2.5}, r.packedFloat64(6));
        assertEquals(42, r.varint(9, 42), "an absent field is its default");
        assertEquals(List.of(), r.all(9));
    }

    @Test
    void malformedInputIsAnErrorSayingWhereNeverAnOverrun() {
        for (String bad : List.of("0a05616263", "08ffffffffffffffffffff01", "09000000", "0b", "00", "0affffffff0f")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProtoReader.parse(HexFormat.of().parseHex(bad)), bad);
            assertTrue(e.getMessage().startsWith("protobuf: "), e.getMessage());
        }
        ProtoReader wrongType = ProtoReader.parse(HexFormat.of().parseHex("0801"));
        assertThrows(IllegalArgumentException.class, () -> wrongType.string(1));
    }
}
