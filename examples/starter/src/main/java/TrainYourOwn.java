import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Checkpoint;
import dev.jgrad.nn.Init;
import dev.jgrad.nn.Layer;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Losses;
import dev.jgrad.nn.data.DataLoader;
import dev.jgrad.nn.data.TensorDataset;
import dev.jgrad.nn.optim.AdamW;
import dev.jgrad.nn.optim.LrScheduler;
import dev.jgrad.nn.optim.Optimizer;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Memory;
import dev.jgrad.tensor.Tensor;
import java.nio.file.Path;
import java.util.List;

public class TrainYourOwn {
    /** A model of your own: register its layers, write its forward. */
    static class Net extends Layer {
        final Linear hidden = registerModule("hidden", new Linear(4, 32));
        final Linear out = registerModule("out", new Linear(32, 1));

        @Override
        public Variable forward(Variable x) {
            return out.forward(hidden.forward(x).relu());
        }
    }

    public static void main(String[] args) throws Exception {
        Generator gen = new Generator(0);
        Tensor x = Tensor.randn(gen, 512, 4);                                    // 512 samples, 4 features
        Tensor y = x.matmul(Tensor.of(new float[] {1, -2, 0.5f, 3}, 4, 1)).tanh(); // targets, shape (512, 1)
        DataLoader loader = new DataLoader(new TensorDataset(x, y), 32, true, 0, true);

        Init.manualSeed(0);                                                       // the layers draw their weights from it
        Net model = new Net();
        System.out.println(model.parameterCount() + " parameters");
        Optimizer opt = new AdamW(model.parameters(), 1e-2);
        LrScheduler schedule = LrScheduler.cosine(opt, 30, 1e-4);                // one step per epoch
        for (int epoch = 1; epoch <= 30; epoch++) {
            double total = 0;
            for (List<Tensor> batch : loader) {
                try (Memory.Scope step = Memory.scope()) {   // the step's arrays are reused by the next step
                    opt.zeroGrad();
                    Variable loss = Losses.mseLoss(model.forward(Variable.of(batch.get(0))), Variable.of(batch.get(1)));
                    loss.backward();
                    opt.step();
                    total += loss.item();
                }
            }
            schedule.step();
            System.out.printf("epoch %d loss %.5f%n", epoch, total / loader.batches());
        }
        Checkpoint.save(model, Path.of(args.length > 0 ? args[0] : "model.safetensors"));
    }
}
