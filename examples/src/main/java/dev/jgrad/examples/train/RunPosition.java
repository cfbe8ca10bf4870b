package dev.jgrad.examples.train;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a run is: epochs finished, batches finished of the next one (and their loss so far), optimizer steps. Written
 * into every checkpoint's metadata, so that {@code --resume} continues the run where it stopped: the data order, the
 * epoch counts and the curves go on as if it had never stopped.
 */
final class RunPosition {
    private static final String EPOCHS = "jgrad.epochs_done";
    private static final String BATCHES = "jgrad.batches_done";
    private static final String STEP = "jgrad.step";
    private static final String LOSS_SUM = "jgrad.epoch_loss_sum";
    /** The position of the run in progress, which checkpoints record. */
    private static volatile RunPosition current;

    int epochsDone;
    int batchesDone;
    long step;
    double lossSum;
    StepLossWindow window = new StepLossWindow();

    static RunPosition start() {
        return new RunPosition();
    }

    static RunPosition current() {
        return current;
    }

    void makeCurrent() {
        current = this;
    }

    /** No run position is recorded (a trainer that keeps its own, as gpt). */
    static void clear() {
        current = null;
    }

    Map<String, String> toMetadata() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(EPOCHS, Integer.toString(epochsDone));
        m.put(BATCHES, Integer.toString(batchesDone));
        m.put(STEP, Long.toString(step));
        m.put(LOSS_SUM, Double.toString(lossSum));
        window.writeTo(m);
        return m;
    }

    /** The position a checkpoint's metadata records; the start for a file without one (a PyTorch state dict, say). */
    static RunPosition of(Map<String, String> meta) {
        RunPosition p = new RunPosition();
        if (meta == null || !meta.containsKey(EPOCHS)) {
            return p;
        }
        try {
            p.epochsDone = Integer.parseInt(meta.get(EPOCHS));
            p.batchesDone = Integer.parseInt(meta.getOrDefault(BATCHES, "0"));
            p.step = Long.parseLong(meta.getOrDefault(STEP, "0"));
            p.lossSum = Double.parseDouble(meta.getOrDefault(LOSS_SUM, "0"));
            p.window = StepLossWindow.of(meta);
        } catch (NumberFormatException e) {
            return new RunPosition();
        }
        return p;
    }

    boolean atStart() {
        return epochsDone == 0 && batchesDone == 0 && step == 0;
    }

    @Override
    public String toString() {
        return "epoch " + (epochsDone + (batchesDone > 0 ? 1 : 0)) + (batchesDone > 0 ? " (batch " + batchesDone + ")" : " done")
                + ", step " + step;
    }
}
