/** The tape: Variable, the recorded graph, each op's backward beside its forward, anomaly mode and gradcheck. */
module dev.jgrad.autograd {
    requires transitive dev.jgrad.tensor;

    exports dev.jgrad.autograd;
}
