package dev.jgrad.autograd;

import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.Generator;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * prod's first-order gradient in float32 (read and written as floats, multiplied in double) against the float64 path's
 * rounded to float, bit for bit, along each dim of a tensor with distinct sizes and zeros planted: one zero in a group
 * (its gradient is the product of the others, theirs zero) and two (all zero).
 */
class ProductGradientTest {
    @Test
    void float32GradientIsTheDoubleProductOfTheOthersRounded() {
        Tensor x = Tensor.randn(new Generator(12), 5, 9, 7).mul(0.4).add(1.0);
        x.set(0.0, 1, 2, 3).set(0.0, 3, 4, 0).set(0.0, 3, 4, 6).set(0.0, 0, 0, 0);
        for (int d = 0; d < 3; d++) {
            Variable f = Variable.of(x, true);
            f.prod(d, false).sum().backward();
            Variable w = Variable.of(x.to(DType.FLOAT64), true);
            w.prod(d, false).sum().backward();
            Tensor got = f.grad().data();
            Tensor want = w.grad().data();
            for (int e = 0; e < x.numel(); e++) {
                int[] idx = {e / 63, e / 7 % 9, e % 7};
                assertEquals(Float.floatToRawIntBits((float) want.getDouble(idx)), Float.floatToRawIntBits((float) got.getDouble(idx)),
                        "d(prod over " + d + ")/dx at " + java.util.Arrays.toString(idx));
            }
        }
        // The zero at (1, 2, 3) alone in its row along dim 2: its gradient is the product of the row's others.
        Variable f = Variable.of(x, true);
        f.prod(2, false).sum().backward();
        double others = 1;
        for (int k = 0; k < 7; k++) {
            others *= k == 3 ? 1 : x.getDouble(1, 2, k);
        }
        assertEquals((float) others, (float) f.grad().data().getDouble(1, 2, 3), 0f);
        assertEquals(0.0, f.grad().data().getDouble(1, 2, 4), 0.0);
        assertEquals(0.0, f.grad().data().getDouble(3, 4, 0), 0.0);
        assertEquals(0.0, f.grad().data().getDouble(3, 4, 6), 0.0);
    }
}
