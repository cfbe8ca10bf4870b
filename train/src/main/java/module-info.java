/**
 * The training loop as a library: {@link dev.jgrad.train.Fit} trains a model and leaves a run folder (its options,
 * curves, checkpoints and summary) that a stopped run resumes from.
 */
module dev.jgrad.train {
    requires transitive dev.jgrad.nn;
    // loss.png
    requires org.jfree.jfreechart;
    requires transitive java.desktop;
    // Ctrl-C and SIGTERM stop a run at the end of a step (sun.misc.Signal).
    requires jdk.unsupported;
    // The dashboard's page (com.sun.net.httpserver).
    requires jdk.httpserver;

    exports dev.jgrad.train;
    exports dev.jgrad.train.tensorboard;
    exports dev.jgrad.train.dashboard;
    exports dev.jgrad.train.parallel;
}
