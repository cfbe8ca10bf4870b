import dev.jgrad.autograd.Variable;
import dev.jgrad.nn.Layer;
import dev.jgrad.nn.Linear;
import dev.jgrad.nn.Losses;
import dev.jgrad.nn.data.DataLoader;
import dev.jgrad.nn.data.TensorDataset;
import dev.jgrad.nn.optim.AdamW;
import dev.jgrad.nn.optim.LrScheduler;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import dev.jgrad.train.Fit;

import java.nio.file.Files;
import java.nio.file.Path;

/** A model of your own, trained by jgrad's loop into a run folder that Ctrl-C, a crash and a second run all respect. */
public class TrainYourOwn {
    /** Register the layers, write the forward. */
    static class Net extends Layer {
        final Linear hidden;
        final Linear out;

        Net(Generator gen) {
            hidden = registerModule("hidden", new Linear(4, 32, true, gen));
            out = registerModule("out", new Linear(32, 1, true, gen));
        }

        @Override
        public Variable forward(Variable x) {
            return out.forward(hidden.forward(x).relu());
        }
    }

    public static void main(String[] args) {
        Generator data = new Generator(0);
        Tensor w = Tensor.of(new float[] {1, -2, 0.5f, 3}, 4, 1);
        Tensor x = Tensor.randn(data, 512, 4);                       // 512 samples, 4 features
        Tensor y = x.matmul(w).tanh();                                // targets, shape (512, 1)
        Tensor xTest = Tensor.randn(data, 128, 4);
        Tensor yTest = xTest.matmul(w).tanh();

        Net model = new Net(new Generator(1));                        // the weights draw from their own generator
        System.out.println(model.parameterCount() + " parameters");
        AdamW opt = new AdamW(model.parameters(), 1e-2);
        Path run = Path.of(args.length > 0 ? args[0] : "runs/own");

        Fit fit = Fit.of(model, opt, new DataLoader(new TensorDataset(x, y), 32, true, 0, false))
                .loss(b -> Losses.mseLoss(model.forward(Variable.of(b.get(0))), Variable.of(b.get(1))))
                .heldOut(() -> Losses.mseLoss(model.forward(Variable.of(xTest)), Variable.of(yTest)).item())
                .epochSchedule(LrScheduler.cosine(opt, 30, 1e-4))   // stepped once per epoch
                .epochs(30)
                .out(run);
        if (Files.exists(run.resolve("model.safetensors"))) {
            fit.resume(run);                                          // a second run continues where the first stopped
        }
        Fit.Result r = fit.run(System.out);
        System.out.printf("held-out loss %.5f after %d steps%n", r.heldOutLoss(), r.steps());
    }
}
