package dev.jgrad.train.tensorboard;

import dev.jgrad.tensor.Tensor;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.imageio.ImageIO;

/**
 * TensorBoard event files, written as PyTorch's {@code torch.utils.tensorboard.SummaryWriter} writes them: the same
 * methods ({@code addScalar}, {@code addScalars}, {@code addHistogram}, {@code addText}, {@code addImage},
 * {@code addHparams}, {@code flush}, {@code close}), the same file names ({@code events.out.tfevents.<secs>.<host>.<pid>.<n>})
 * and the same records, so that {@code tensorboard --logdir} shows a jgrad run beside a PyTorch one.
 *
 * <pre>{@code
 * try (SummaryWriter tb = new SummaryWriter(Path.of("runs/exp1"))) {
 *     for (int step = 1; step <= 100; step++) {
 *         tb.addScalar("loss/train", loss, step);
 *     }
 * }
 * }</pre>
 *
 * <p>Logging never holds up training: each {@code add} takes a copy of what it logs and hands it to a background thread,
 * which encodes it (histograms, PNGs) and writes it; the thread flushes the files whenever it has caught up, so a running
 * TensorBoard sees a step within a second or two. Where the disk is slower than the run, events past a queue of
 * {@link #QUEUE} are dropped and counted (one line says how many when the writer closes). A failed write (a full disk, a
 * removed folder) stops the logging with one warning line on stderr, never the run: every later {@code add} does
 * nothing. Methods are safe to call from several threads.
 */
public final class SummaryWriter implements AutoCloseable {
    /** The events waiting to be written at most; more are dropped (and counted) rather than making training wait. */
    public static final int QUEUE = 4096;
    private static final AtomicInteger GLOBAL_UID = new AtomicInteger();
    /** Marks the end of the queue for the writer thread. */
    private static final Task CLOSE = out -> {
    };

    private final Path logDir;
    /** The restart marker's step that the writer's own file starts with; -1 for none. */
    private final long purgeStep;
    private final PrintStream warnings;
    private final BlockingQueue<Task> queue = new ArrayBlockingQueue<>(QUEUE);
    private final Thread thread;
    /** The files by folder: the writer's own, and one per {@link #addScalars} series and {@link #addHparams} run. */
    private final Map<Path, EventFile> files = new LinkedHashMap<>();
    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean failed;
    private volatile boolean closed;

    /** A writer of event files into {@code logDir} (created with its parents). */
    public SummaryWriter(Path logDir) {
        this(logDir, -1, System.err);
    }

    /**
     * A writer that continues a stopped run's logs: its file starts with TensorBoard's restart marker at
     * {@code purgeStep}, so the events of that step and later ones that the stopped run wrote are not shown (as
     * PyTorch's {@code purge_step}; 0 hides every earlier event of the folder, -1 none). {@code warnings} receives the one
     * line a failure or a dropped event gives. Files are created with their first event.
     */
    public SummaryWriter(Path logDir, long purgeStep, PrintStream warnings) {
        this.logDir = logDir;
        this.warnings = warnings;
        this.thread = new Thread(this::drain, "jgrad-tensorboard");
        thread.setDaemon(true);
        this.purgeStep = purgeStep;
        thread.start();
    }

    /** The folder the writer's own events go to. */
    public Path logDir() {
        return logDir;
    }

    /** Whether logging stopped on a failed write. */
    public boolean failed() {
        return failed;
    }

    /** Events dropped so far because the queue was full. */
    public long dropped() {
        return dropped.get();
    }

    /** A scalar at {@code step} (stored as float32, as TensorBoard stores every scalar). */
    public void addScalar(String tag, double value, long step) {
        addScalar(tag, value, step, wallTime());
    }

    /** A scalar with the wall time to show for it (seconds since the epoch). */
    public void addScalar(String tag, double value, long step, double wallTime) {
        checkTag(tag);
        submit(out -> out.file(logDir).write(Summaries.event(wallTime, step, Summaries.scalar(tag, value))));
    }

    /**
     * Several scalars in one chart: as PyTorch, each key's values go to a folder of their own,
     * {@code <logDir>/<mainTag>_<key>} (slashes in mainTag as underscores), under the tag {@code mainTag}, so that
     * TensorBoard draws them as runs of one chart.
     */
    public void addScalars(String mainTag, Map<String, ? extends Number> values, long step) {
        checkTag(mainTag);
        double wall = wallTime();
        for (Map.Entry<String, ? extends Number> e : values.entrySet()) {
            Path dir = logDir.resolve(folderName(mainTag.replace('/', '_') + "_" + e.getKey()));
            double v = e.getValue().doubleValue();
            submit(out -> out.file(dir).write(Summaries.event(wall, step, Summaries.scalar(mainTag, v))));
        }
    }

    /** A histogram of a tensor's values (any shape; NaNs and values beyond ±1e20 are not counted). */
    public void addHistogram(String tag, Tensor values, long step) {
        checkTag(tag);
        histogramOf(tag, values.toFloatArray(), step);
    }

    /** A histogram of {@code values}, binned as PyTorch's default bins; the array is copied. */
    public void addHistogram(String tag, float[] values, long step) {
        checkTag(tag);
        histogramOf(tag, values.clone(), step);
    }

    /** Bins {@code values} (the writer's own copy) on the writer thread. */
    private void histogramOf(String tag, float[] values, long step) {
        double wall = wallTime();
        submit(out -> {
            Histogram h = Histogram.of(values);
            if (h != null) {
                out.file(logDir).write(Summaries.event(wall, step, Summaries.histogram(tag, h)));
            }
        });
    }

    /** A text (Markdown, as TensorBoard's text tab shows it), under {@code tag/text_summary} as PyTorch writes it. */
    public void addText(String tag, String text, long step) {
        checkTag(tag);
        double wall = wallTime();
        submit(out -> out.file(logDir).write(Summaries.event(wall, step, Summaries.text(tag, text))));
    }

    /** An image, stored as PNG. The image is encoded later, on the writer's thread: do not draw on it afterwards. */
    public void addImage(String tag, BufferedImage image, long step) {
        checkTag(tag);
        double wall = wallTime();
        submit(out -> {
            ByteArrayOutputStream png = new ByteArrayOutputStream();
            if (!ImageIO.write(image, "png", png)) {
                throw new IOException("no PNG writer for the image of " + tag);
            }
            int channels = image.getColorModel().getNumComponents();
            out.file(logDir).write(Summaries.event(wall, step, Summaries.image(tag, image.getHeight(), image.getWidth(), channels, png.toByteArray())));
        });
    }

    /**
     * An image given as PyTorch's {@code add_image} takes it by default: a {@code (C, H, W)} tensor with 1, 3 or 4 channels
     * (grey, RGB, RGBA) and values in [0, 1] (clipped).
     */
    public void addImage(String tag, Tensor chw, long step) {
        checkTag(tag);
        if (chw.dim() != 3 || !(chw.shape()[0] == 1 || chw.shape()[0] == 3 || chw.shape()[0] == 4)) {
            throw new IllegalArgumentException("addImage(" + tag + "): an image tensor is (C, H, W) with 1, 3 or 4 channels, got "
                    + java.util.Arrays.toString(chw.shape()));
        }
        addImage(tag, Images.fromChw(chw), step);
    }

    /**
     * The run's hyperparameters and its final metrics, for TensorBoard's HParams tab, as PyTorch's {@code add_hparams}:
     * written to a folder of their own under this writer's, {@code runName} (PyTorch's default is the time, which this
     * method uses when runName is null), with each metric also as a scalar there. Values are numbers, booleans or texts.
     */
    public void addHparams(Map<String, ?> hparams, Map<String, ? extends Number> metrics, String runName) {
        Map<String, Object> hp = new LinkedHashMap<>();
        for (Map.Entry<String, ?> e : hparams.entrySet()) {
            if (e.getValue() != null) {
                hp.put(e.getKey(), e.getValue() instanceof Number || e.getValue() instanceof Boolean ? e.getValue() : String.valueOf(e.getValue()));
            }
        }
        Map<String, Double> m = new LinkedHashMap<>();
        metrics.forEach((k, v) -> m.put(k, v.doubleValue()));
        Path dir = logDir.resolve(folderName(runName != null ? runName : Double.toString(wallTime())));
        double wall = wallTime();
        submit(out -> {
            EventFile f = out.file(dir);
            f.write(Summaries.event(wall, 0, Summaries.experiment(hp, m.keySet())));
            f.write(Summaries.event(wall, 0, Summaries.sessionStartInfo(hp)));
            f.write(Summaries.event(wall, 0, Summaries.sessionEndInfo(Summaries.STATUS_SUCCESS)));
            for (Map.Entry<String, Double> e : m.entrySet()) {
                f.write(Summaries.event(wall, 0, Summaries.scalar(e.getKey(), e.getValue())));
            }
        });
    }

    /** Writes everything added so far to disk, and waits for it (at most 30 seconds). */
    public void flush() {
        if (closed || failed) {
            return;
        }
        FlushMarker marker = new FlushMarker();
        try {
            if (queue.offer(marker, 30, TimeUnit.SECONDS)) {
                marker.done.await(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes what is left and closes the files (waiting at most 30 seconds); later adds do nothing. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (queue.offer(CLOSE, 30, TimeUnit.SECONDS)) {
                thread.join(30_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long lost = dropped.get();
        if (lost > 0 && !failed) {
            warnings.println("jgrad: " + lost + " TensorBoard event(s) of " + logDir + " were dropped: the disk was slower than the run");
        }
    }

    private void submit(Task task) {
        if (closed || failed) {
            return;
        }
        if (!queue.offer(task)) {
            dropped.incrementAndGet();
        }
    }

    /** The writer thread: takes tasks until the close marker, flushing whenever the queue is empty. */
    private void drain() {
        Output out = new Output();
        try {
            while (true) {
                Task t = queue.poll();
                if (t == null) {
                    if (!failed) {
                        try {
                            out.flushAll();
                        } catch (IOException e) {
                            fail(e);
                        }
                    }
                    t = queue.take();
                }
                if (t == CLOSE) {
                    break;
                }
                if (!failed) {
                    try {
                        t.run(out);
                    } catch (IOException | RuntimeException | OutOfMemoryError e) {
                        // Out of memory too (a huge image): the logging stops with its line, the run goes on.
                        fail(e);
                    }
                }
                if (t instanceof FlushMarker m) {
                    m.done.countDown();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            out.closeAll();
        }
    }

    private void fail(Throwable e) {
        failed = true;
        String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        warnings.println("jgrad: TensorBoard logging stopped (the run goes on): could not write under " + logDir + ": " + reason);
    }

    private static double wallTime() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() + now.getNano() / 1e9;
    }

    private static void checkTag(String tag) {
        if (tag == null || tag.isEmpty()) {
            throw new IllegalArgumentException("a TensorBoard tag is a non-empty text, got " + (tag == null ? "null" : "\"\""));
        }
    }

    /** A name usable as one folder: path separators and names that climb ({@code ..}) are replaced. */
    private static String folderName(String name) {
        String s = name.replace('/', '_').replace('\\', '_');
        return s.isEmpty() || s.equals(".") || s.equals("..") ? "_" + s : s;
    }

    /** Asks the writer thread to flush every file, and says when it has. */
    private static final class FlushMarker implements Task {
        final CountDownLatch done = new CountDownLatch(1);

        @Override
        public void run(Output out) throws IOException {
            out.flushAll();
        }
    }

    /** Work for the writer thread. */
    @FunctionalInterface
    private interface Task {
        void run(Output out) throws IOException;
    }

    /** The open event files, used by the writer thread only. */
    private final class Output {
        EventFile file(Path dir) throws IOException {
            EventFile f = files.get(dir);
            if (f == null) {
                // Files are made with their first event, so a run refused before it logs anything leaves none.
                f = EventFile.create(dir, GLOBAL_UID.getAndIncrement());
                double now = wallTime();
                f.write(Summaries.fileVersion(now));
                if (dir.equals(logDir) && purgeStep >= 0) {
                    f.write(Summaries.sessionStart(now, purgeStep));
                }
                files.put(dir, f);
            }
            return f;
        }

        void flushAll() throws IOException {
            for (EventFile f : files.values()) {
                f.flush();
            }
        }

        void closeAll() {
            List<IOException> failures = new ArrayList<>();
            for (EventFile f : files.values()) {
                try {
                    f.close();
                } catch (IOException e) {
                    failures.add(e);
                }
            }
            if (!failures.isEmpty() && !failed) {
                fail(failures.get(0));
            }
        }
    }
}
