package dev.jgrad.examples.cli;

import dev.jgrad.examples.UserError;
import dev.jgrad.nn.io.AtomicFile;
import dev.jgrad.tensor.Backend;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.util.concurrent.Callable;

/** {@code jgrad tune}: measures this processor's block sizes and thread split, and keeps them in its tuning file. */
@Command(name = "tune", mixinStandardHelpOptions = true,
        description = {"Measure this processor's best choices of the matrix product's rows per block and of the size from which ops are "
            + "split across threads (a few seconds), and keep them in its tuning file in the user's cache folder "
            + "(~/.cache/jgrad; -Djgrad.tuning=FILE or JGRAD_TUNING names another). ./jgrad measures once by itself before the first "
            + "training run on a processor; this command measures again. The choices change how fast results come, never their bits."})
public final class TuneCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.out.println("processor: " + Backend.processor());
        try {
            Backend.tune(System.out);
        } catch (IOException e) {
            throw new UserError("cannot write the tuning file: " + AtomicFile.reason(e) + " (the choices were measured and used in this run"
                    + " only)", e);
        }
        return 0;
    }
}
