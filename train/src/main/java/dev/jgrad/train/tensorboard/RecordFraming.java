package dev.jgrad.train.tensorboard;

import java.util.zip.CRC32C;

/**
 * TensorFlow's record format, in which event files hold their events: each record is its length (8 bytes,
 * little-endian), the masked CRC-32C of those 8 bytes (4 bytes), the data, and the masked CRC-32C of the data. The mask
 * (rotate right by 15 bits, add a constant) keeps a CRC of data that holds CRCs from being a CRC of itself.
 */
public final class RecordFraming {
    private static final int MASK_DELTA = 0xa282ead8;

    private RecordFraming() {
    }

    /** The record holding {@code data}, ready to append to an event file. */
    public static byte[] frame(byte[] data) {
        byte[] record = new byte[8 + 4 + data.length + 4];
        long length = data.length;
        for (int i = 0; i < 8; i++) {
            record[i] = (byte) (length >>> (8 * i));
        }
        putInt(record, 8, maskedCrc32c(record, 0, 8));
        System.arraycopy(data, 0, record, 12, data.length);
        putInt(record, 12 + data.length, maskedCrc32c(data, 0, data.length));
        return record;
    }

    /** The masked CRC-32C of {@code len} bytes of {@code b} from {@code off}. */
    public static int maskedCrc32c(byte[] b, int off, int len) {
        CRC32C crc = new CRC32C();
        crc.update(b, off, len);
        int c = (int) crc.getValue();
        return ((c >>> 15) | (c << 17)) + MASK_DELTA;
    }

    private static void putInt(byte[] b, int at, int v) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }
}
