package dev.jgrad.nn;

import dev.jgrad.autograd.NoGrad;
import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.io.Safetensors;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.jgrad.nn.InteropFixtures.assertClose;
import static dev.jgrad.nn.InteropFixtures.fixture;
import static dev.jgrad.nn.InteropFixtures.json;
import static dev.jgrad.nn.InteropFixtures.tensor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A CNN (conv, batch norm, pooling, linear), an LSTM and a GRU trained a few steps by PyTorch
 * (make_layer_fixtures.py in the test resources), loaded from their PyTorch-named state dicts: jgrad's
 * outputs, in eval and in training mode, and batch norm's running statistics must be PyTorch's, and
 * {@code Checkpoint.save} must write back the file PyTorch wrote, byte for byte.
 */
class LayerInteropTest {
    @TempDir
    Path tmp;

    static Sequential cnn() {
        int[] k3 = {3, 3};
        int[] one = {1, 1};
        int[] zero = {0, 0};
        int[] two = {2, 2};
        return new Sequential(new Conv2d(1, 4, 3, 1, 1), new BatchNorm2d(4), new ReLU(), new MaxPool2d(2),
                new Conv2d(4, 6, k3, one, zero, one, 1, false, null), new BatchNorm2d(6, 1e-5, 0.3, true, true), new ReLU(),
                new MaxPool2d(two, two, zero, one, true), new Flatten(), new Linear(12, 5));
    }

    /** The recurrent fixtures' model: a recurrent layer named "rnn" and a linear "head" on its every output. */
    static final class RecurrentHead extends Module {
        final RecurrentLayer rnn;
        final Linear head;

        RecurrentHead(RecurrentLayer rnn, int classes) {
            this.rnn = registerModule("rnn", rnn);
            this.head = registerModule("head", new Linear(rnn.hiddenSize(), classes));
        }
    }

    private void assertSavesTheSameBytes(Module model, String name, Map<String, String> metadata) throws IOException {
        Path out = tmp.resolve(name);
        Checkpoint.save(model, out, metadata);
        assertArrayEquals(fixture(name), Files.readAllBytes(out), name + ": jgrad writes the file PyTorch wrote");
    }

    @Test
    void cnnWithBatchNormMatchesPytorchInEvalAndTrainingMode() throws IOException {
        Map<String, Object> spec = json("cnn.json");
        Safetensors.Contents c = Safetensors.decode(fixture("cnn.safetensors"));
        assertEquals(List.of("0.weight", "0.bias", "1.weight", "1.bias", "1.running_mean", "1.running_var", "1.num_batches_tracked",
                "4.weight", "5.weight", "5.bias", "5.running_mean", "5.running_var", "5.num_batches_tracked", "9.weight", "9.bias"),
                List.copyOf(c.tensors().keySet()));
        Sequential model = cnn();
        assertEquals(List.copyOf(c.tensors().keySet()), List.copyOf(model.stateDict().keySet()), "the same names in the same order");
        model.loadStateDict(c.tensors());
        assertEquals(DType.INT64, model.stateDict().get("1.num_batches_tracked").dtype());
        assertSavesTheSameBytes(model, "cnn.safetensors", Map.of("architecture", c.metadata().get("architecture")));
        Tensor x = tensor(spec.get("input"));
        model.eval();
        try (NoGrad g = NoGrad.enter()) {
            assertClose(tensor(spec.get("eval_output")), model.forward(Variable.of(x)).data());
            model.train();
            assertClose(tensor(spec.get("train_output")), model.forward(Variable.of(x)).data());
        }
        Map<String, Tensor> after = model.stateDict();
        assertClose(tensor(spec.get("running_mean_after_train_forward")), after.get("1.running_mean"));
        assertClose(tensor(spec.get("running_var_after_train_forward")), after.get("5.running_var"));
        assertEquals(((Number) spec.get("num_batches_tracked_after_train_forward")).longValue(),
                after.get("1.num_batches_tracked").toLongArray()[0]);
    }

    @Test
    void twoLayerBatchFirstLstmMatchesPytorch() throws IOException {
        Map<String, Object> spec = json("lstm.json");
        Safetensors.Contents c = Safetensors.decode(fixture("lstm.safetensors"));
        RecurrentHead model = new RecurrentHead(new LSTM(5, 7, 2, true), 3);
        assertEquals(List.copyOf(c.tensors().keySet()), List.copyOf(model.stateDict().keySet()));
        assertEquals(List.of("rnn.weight_ih_l0", "rnn.weight_hh_l0", "rnn.bias_ih_l0", "rnn.bias_hh_l0", "rnn.weight_ih_l1",
                "rnn.weight_hh_l1", "rnn.bias_ih_l1", "rnn.bias_hh_l1", "head.weight", "head.bias"), List.copyOf(model.stateDict().keySet()));
        model.loadStateDict(c.tensors());
        model.eval();
        assertSavesTheSameBytes(model, "lstm.safetensors", Map.of("architecture", c.metadata().get("architecture")));
        try (NoGrad g = NoGrad.enter()) {
            Recurrent.State s = ((LSTM) model.rnn).forward(Variable.of(tensor(spec.get("input"))));
            assertClose(tensor(spec.get("output")), s.output().data());
            assertClose(tensor(spec.get("h_n")), s.hidden().data());
            assertClose(tensor(spec.get("c_n")), s.cell().data());
            assertClose(tensor(spec.get("logits")), model.head.forward(s.output()).data());
        }
    }

    @Test
    void sequenceFirstGruMatchesPytorch() throws IOException {
        Map<String, Object> spec = json("gru.json");
        Safetensors.Contents c = Safetensors.decode(fixture("gru.safetensors"));
        RecurrentHead model = new RecurrentHead(new GRU(5, 6), 3);
        assertEquals(List.copyOf(c.tensors().keySet()), List.copyOf(model.stateDict().keySet()));
        model.loadStateDict(c.tensors());
        model.eval();
        assertSavesTheSameBytes(model, "gru.safetensors", Map.of("architecture", c.metadata().get("architecture")));
        try (NoGrad g = NoGrad.enter()) {
            Recurrent.State s = ((GRU) model.rnn).forward(Variable.of(tensor(spec.get("input"))));
            assertClose(tensor(spec.get("output")), s.output().data());
            assertClose(tensor(spec.get("h_n")), s.hidden().data());
            assertClose(tensor(spec.get("logits")), model.head.forward(s.output()).data());
        }
    }
}
