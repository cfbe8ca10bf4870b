/** Modules and layers, losses, optimizers, data loading and safetensors state dicts that PyTorch reads and writes. */
module dev.jgrad.nn {
    requires transitive dev.jgrad.autograd;

    exports dev.jgrad.nn;
    exports dev.jgrad.nn.data;
    exports dev.jgrad.nn.gpt;
    exports dev.jgrad.nn.io;
    exports dev.jgrad.nn.onnx;
    exports dev.jgrad.nn.optim;
}
