package dev.jgrad.train.tensorboard;

import dev.jgrad.nn.io.ProtoWriter;
import java.util.Map;

/**
 * The messages of TensorBoard's event files (tensorboard/compat/proto: event.proto, summary.proto; the hparams
 * plugin's plugin_data.proto and api.proto), built as PyTorch's {@code torch.utils.tensorboard.summary} builds them and
 * with proto3's defaults left out as protobuf leaves them out, so that the bytes are the ones PyTorch writes.
 */
final class Summaries {
    /** The first event of every file: TensorBoard reads only files that start with it. */
    static final String FILE_VERSION = "brain.Event:2";
    /** The hparams plugin's tags and the version of its data. */
    static final String EXPERIMENT_TAG = "_hparams_/experiment";
    static final String SESSION_START_TAG = "_hparams_/session_start_info";
    static final String SESSION_END_TAG = "_hparams_/session_end_info";
    /** TensorFlow's DT_STRING, the type of a text summary's tensor. */
    private static final int DT_STRING = 7;
    /** The hparams plugin's DataType values, and its STATUS_SUCCESS. */
    private static final int DATA_TYPE_STRING = 1;
    private static final int DATA_TYPE_BOOL = 2;
    private static final int DATA_TYPE_FLOAT64 = 3;
    static final int STATUS_SUCCESS = 1;
    /** SessionLog's START: TensorBoard drops the events of later steps written before it (a resumed run's restart). */
    private static final int SESSION_START = 1;

    private Summaries() {
    }

    /** An Event holding a summary. */
    static byte[] event(double wallTime, long step, ProtoWriter summary) {
        ProtoWriter e = header(wallTime, step);
        e.message(5, summary);
        return e.toByteArray();
    }

    /** The first event of a file: its version, and who wrote it (SourceMetadata.writer). */
    static byte[] fileVersion(double wallTime) {
        return header(wallTime, 0).string(3, FILE_VERSION).message(10, new ProtoWriter().string(1, "jgrad")).toByteArray();
    }

    /** SessionLog START at {@code step}: the events of steps from it on, written earlier, are to be dropped. */
    static byte[] sessionStart(double wallTime, long step) {
        return header(wallTime, step).message(7, new ProtoWriter().varint(1, SESSION_START)).toByteArray();
    }

    private static ProtoWriter header(double wallTime, long step) {
        ProtoWriter e = new ProtoWriter();
        if (Double.doubleToRawLongBits(wallTime) != 0) {
            e.float64(1, wallTime);
        }
        if (step != 0) {
            e.varint(2, step);
        }
        return e;
    }

    /** A summary of one value. */
    static ProtoWriter summary(ProtoWriter value) {
        return new ProtoWriter().message(1, value);
    }

    /** A scalar, as float32 (Summary.Value.simple_value). */
    static ProtoWriter scalar(String tag, double value) {
        return summary(new ProtoWriter().string(1, tag).float32(2, (float) value));
    }

    /** A histogram. */
    static ProtoWriter histogram(String tag, Histogram h) {
        return summary(new ProtoWriter().string(1, tag).message(5, h.proto()));
    }

    /** An image: its PNG bytes, size and channels (Summary.Image). */
    static ProtoWriter image(String tag, int height, int width, int channels, byte[] png) {
        ProtoWriter image = new ProtoWriter().varint(1, height).varint(2, width).varint(3, channels).bytes(4, png);
        return summary(new ProtoWriter().string(1, tag).message(4, image));
    }

    /** A text: a string tensor of shape [1], under "tag/text_summary", for the text plugin. */
    static ProtoWriter text(String tag, String text) {
        ProtoWriter shape = new ProtoWriter().message(2, new ProtoWriter().varint(1, 1));
        ProtoWriter tensor = new ProtoWriter().varint(1, DT_STRING).message(2, shape).string(8, text);
        ProtoWriter metadata = new ProtoWriter().message(1, new ProtoWriter().string(1, "text"));
        return summary(new ProtoWriter().string(1, tag + "/text_summary").message(8, tensor).message(9, metadata));
    }

    /** The hparams plugin's experiment: the hyperparameters' names and types, and the metrics' tags. */
    static ProtoWriter experiment(Map<String, Object> hparams, Iterable<String> metrics) {
        ProtoWriter experiment = new ProtoWriter();
        for (Map.Entry<String, Object> e : hparams.entrySet()) {
            experiment.message(4, new ProtoWriter().string(1, e.getKey()).varint(4, dataType(e.getValue())));
        }
        for (String m : metrics) {
            experiment.message(5, new ProtoWriter().message(1, new ProtoWriter().string(2, m)));
        }
        return hparamsSummary(EXPERIMENT_TAG, new ProtoWriter().message(2, experiment));
    }

    /** The hparams plugin's session start: each hyperparameter's value. */
    static ProtoWriter sessionStartInfo(Map<String, Object> hparams) {
        ProtoWriter start = new ProtoWriter();
        for (Map.Entry<String, Object> e : hparams.entrySet()) {
            start.message(1, new ProtoWriter().string(1, e.getKey()).message(2, value(e.getValue())));
        }
        return hparamsSummary(SESSION_START_TAG, new ProtoWriter().message(3, start));
    }

    /** The hparams plugin's session end, with its status. */
    static ProtoWriter sessionEndInfo(int status) {
        return hparamsSummary(SESSION_END_TAG, new ProtoWriter().message(4, new ProtoWriter().varint(1, status)));
    }

    private static ProtoWriter hparamsSummary(String tag, ProtoWriter pluginData) {
        // HParamsPluginData's version is 0, which proto3 leaves out.
        ProtoWriter plugin = new ProtoWriter().string(1, "hparams").message(2, pluginData);
        return summary(new ProtoWriter().string(1, tag).message(9, new ProtoWriter().message(1, plugin)));
    }

    private static int dataType(Object v) {
        if (v instanceof Boolean) {
            return DATA_TYPE_BOOL;
        }
        return v instanceof Number ? DATA_TYPE_FLOAT64 : DATA_TYPE_STRING;
    }

    /** A google.protobuf.Value: a number, a bool or a string (anything else as its text). */
    private static ProtoWriter value(Object v) {
        if (v instanceof Boolean b) {
            return new ProtoWriter().bool(4, b);
        }
        if (v instanceof Number n) {
            return new ProtoWriter().float64(2, n.doubleValue());
        }
        return new ProtoWriter().string(3, String.valueOf(v));
    }
}
