package dev.jgrad.train.tensorboard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.jgrad.nn.io.ProtoWriter;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The records and messages byte for byte as PyTorch 2.13 and TensorBoard 2.20 write them: each expected value is the hex
 * of what {@code torch.utils.tensorboard.summary} and tensorboard's {@code RecordWriter} produced for the same input.
 */
class SummariesTest {
    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    private static String hex(ProtoWriter p) {
        return HexFormat.of().formatHex(p.toByteArray());
    }

    @Test
    void recordsAreFramedWithMaskedCrc32c() {
        assertArrayEquals(hex("0500000000000000eab2043e68656c6c6fbb1f1c19"), RecordFraming.frame("hello".getBytes(StandardCharsets.UTF_8)));
        assertArrayEquals(hex("000000000000000029039807d8ea82a2"), RecordFraming.frame(new byte[0]));
    }

    @Test
    void scalarTextAndEvents() {
        assertEquals("0a110a0a6c6f73732f747261696e150000003f", hex(Summaries.scalar("loss/train", 0.5)));
        assertEquals("0a390a1373616d706c652f746578745f73756d6d61727942180807120412020801420e68c3a96c6c6f202a776f726c642a4a080a060a0474657874",
                hex(Summaries.text("sample", "h\u00e9llo *world*")));
        assertArrayEquals(hex("09000000000000f83f10032a0a0a080a0161150000803f"), Summaries.event(1.5, 3, Summaries.scalar("a", 1.0)));
        assertArrayEquals(hex("09000000000000f83f10073a020801"), Summaries.sessionStart(1.5, 7));
    }

    @Test
    void histogramsAreBinnedAsPyTorchBinsThem() {
        assertEquals("0aa7010a01772aa10109000000000000f03f11000000000000f83f190000000000001040210000000000001340290000000000401740323808996919"
                        + "155aed3f2b14facdbe24f03f6349c61505c2f13fba508d319f88f33f333fe81caf7cf53f8545cc9fc0a2f73f794cfae2d3fff93f3a38000000000000"
                        + "0000000000000000004000000000000000000000000000000000000000000000f03f0000000000000000000000000000f03f",
                hex(Summaries.histogram("w", Histogram.of(new float[] {1.0f, 1.25f, 1.5f, 1.0f}))));
        assertEquals("0a97010a01772a910109000000000000e8bf11000000000000e0bf19000000000000004021000000000000f4bf29000000000000ea3f32303267c747"
                        + "fc41e8bf16756ffb700de6bf2b53652a380ce4bf0f1d5c6ca739e2bfb03125ee8091e0bffae55a25d31fdebf3a300000000000000000000000000000"
                        + "f03f000000000000000000000000000000000000000000000000000000000000f03f",
                hex(Summaries.histogram("w", Histogram.of(new float[] {-0.5f, -0.75f}))));
        // A zero minimum is left out (proto3), and values at the first bucket get an empty one added on their left.
        assertEquals("0a4d0a01772a481100000060c2253c3d1900000000000000402100000060c2253c3d2920ad1ab640c2883a3210000000000000000011ea2d81999771"
                        + "3d3a1000000000000000000000000000000040",
                hex(Summaries.histogram("w", Histogram.of(new float[] {1e-13f, 0f}))));
    }

    @Test
    void histogramEdgesAreTorchsDefaultBins() {
        // 1e-12 * 1.1^k below 1e20, mirrored, and 0: 1549 edges.
        assertEquals(1549, Histogram.EDGES.length);
        assertEquals(0.0, Histogram.EDGES[774]);
        assertEquals(1e-12, Histogram.EDGES[775]);
        assertEquals(-Histogram.EDGES[1548], Histogram.EDGES[0]);
    }

    @Test
    void theLogarithmicBinningFindsTheBinASearchFinds() {
        java.util.Random r = new java.util.Random(5);
        java.util.List<Double> xs = new java.util.ArrayList<>(List.of(0.0, -0.0, 1e-12, -1e-12, 5e-13, -5e-13, 1e-30));
        for (double e : Histogram.EDGES) {
            xs.add(e);
            xs.add(Math.nextUp(e));
            xs.add(Math.nextDown(e));
        }
        for (int i = 0; i < 100_000; i++) {
            double v = Math.pow(10, -14 + 34 * r.nextDouble());
            xs.add(r.nextBoolean() ? v : -v);
            xs.add((double) (float) (r.nextGaussian() * 0.02));
        }
        int last = Histogram.EDGES.length - 2;
        for (double x : xs) {
            if (x < Histogram.EDGES[0] || x > Histogram.EDGES[last + 1]) {
                continue;
            }
            assertEquals(Math.min(last, Histogram.bucketBySearch(x)), Histogram.bucketOf(x), "x = " + x);
        }
    }

    @Test
    void nothingToBinGivesNoHistogram() {
        assertNull(Histogram.of(new float[0]));
        assertNull(Histogram.of(new float[] {Float.NaN, 3e20f, Float.NEGATIVE_INFINITY}));
    }

    @Test
    void hparamsAreThePluginsThreeSummaries() {
        Map<String, Object> hp = new LinkedHashMap<>();
        hp.put("lr", 0.01);
        hp.put("opt", "adam");
        hp.put("layers", 3);
        assertEquals("0a690a145f68706172616d735f2f6578706572696d656e744a510a4f0a0768706172616d731244124222060a026c72200322070a036f70742001220a0a066c61"
                        + "7965727320032a130a11120f68706172616d2f76616c5f6c6f73732a0e0a0c120a68706172616d2f616363",
                hex(Summaries.experiment(hp, List.of("hparam/val_loss", "hparam/acc"))));
        assertEquals("0a400a1c5f68706172616d735f2f73657373696f6e5f73746172745f696e666f4a200a1e0a0768706172616d7312131a110a0f0a026c721209117b14ae47e17a843f",
                hex(Summaries.sessionStartInfo(Map.of("lr", 0.01))));
        assertEquals("0a3e0a1c5f68706172616d735f2f73657373696f6e5f73746172745f696e666f4a1e0a1c0a0768706172616d7312111a0f0a0d0a036f707412061a046164616d",
                hex(Summaries.sessionStartInfo(Map.of("opt", "adam"))));
        assertEquals("0a2f0a1a5f68706172616d735f2f73657373696f6e5f656e645f696e666f4a110a0f0a0768706172616d73120422020801",
                hex(Summaries.sessionEndInfo(Summaries.STATUS_SUCCESS)));
    }
}
