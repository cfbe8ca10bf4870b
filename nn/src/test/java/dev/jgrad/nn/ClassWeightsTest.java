package dev.jgrad.nn;

import dev.jgrad.autograd.Variable;
import dev.jgrad.tensor.DType;
import dev.jgrad.tensor.ShapeException;
import dev.jgrad.tensor.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * cross_entropy and nll_loss with class weights against PyTorch 2.13 in float64: five targets over four classes, one of
 * them ignored, every reduction, with and without label smoothing; the loss and the gradient of its sum.
 */
class ClassWeightsTest {
    private static final double[] X = {0.2, -1.0, 0.5, 1.5, 1.0, 0.0, -0.5, 0.3, -0.2, 0.8, 0.1, 0.0, 0.4, 0.4, -1.2, 2.0, 0.0, 0.3, 0.9, -0.7};
    private static final Tensor TARGET = Tensor.of(new long[] {3, 0, -100, 1, 2}, 5);
    private static final Tensor WEIGHT = Tensor.of(new double[] {1.0, 2.0, 0.5, 3.0}, 4);

    private static void check(Reduction r, double smoothing, double[] loss, double[] grad) {
        Variable x = Variable.of(Tensor.of(X.clone(), 5, 4), true);
        Variable l = Losses.crossEntropy(x, TARGET, WEIGHT, r, Losses.IGNORE_INDEX, smoothing);
        l.sum().backward();
        assertArrayEquals(loss, l.data().toDoubleArray(), 1e-14, r + " " + smoothing + ": loss");
        assertArrayEquals(grad, x.grad().toDoubleArray(), 1e-14, r + " " + smoothing + ": gradient");
    }

    private static final double[] GRAD_SUM = {0.474657281403202, 0.142964025800626, 0.640720311882193, -1.258341619086021, -0.520979861777018,
        0.176221660759338, 0.106883840156017, 0.237874360861663, 0, 0, 0, 0, 0.279527583866122, -1.720472416133878, 0.056435645866029,
        1.384509186401727, 0.09423210518698, 0.127200037143074, -0.268226420911234, 0.046794278581181};
    private static final double[] GRAD_SUM_SMOOTH = {0.427902156005555, 0.08641150795143, 0.59885396425426, -1.113167628211245,
        -0.416041103138081, 0.137235514556796, 0.101064080165768, 0.177741508415517, 0, 0, 0, 0, 0.249286441668632, -1.575713558331368,
        0.042877477506041, 1.283549639156695, 0.090434328854051, 0.105820045500265, -0.178577365616262, -0.017677008738054};

    @Test
    void theMeanDividesByTheWeightsOfTheTargetsCounted() {
        check(Reduction.MEAN, 0, new double[] {1.028825044945306}, new double[] {0.073024197138954, 0.021994465507789, 0.098572355674184,
            -0.193591018320926, -0.080150747965695, 0.027111024732206, 0.01644366771631, 0.036596055517179, 0, 0, 0, 0, 0.043004243671711,
            -0.264688064020597, 0.008682407056312, 0.213001413292573, 0.014497246951843, 0.01956923648355, -0.041265603217113, 0.00719911978172});
        check(Reduction.MEAN, 0.1, new double[] {1.082314974272065}, new double[] {0.065831100923932, 0.013294078146374, 0.09213137911604,
            -0.171256558186345, -0.064006323559705, 0.021113156085661, 0.015548320025503, 0.027344847448541, 0, 0, 0, 0, 0.038351760256713,
            -0.242417470512518, 0.006596535000929, 0.197469175254876, 0.013912973669854, 0.016280007000041, -0.02747344086404,
            -0.002719539805854});
        Variable logp = Variable.of(Tensor.of(X.clone(), 5, 4)).logSoftmax(1);
        assertEquals(1.0288250449453062, Losses.nllLoss(logp, TARGET, WEIGHT, Reduction.MEAN, Losses.IGNORE_INDEX).item(), 1e-14);
    }

    @Test
    void sumAndNoneWeighEachTarget() {
        check(Reduction.SUM, 0, new double[] {6.687362792144491}, GRAD_SUM);
        check(Reduction.SUM, 0.1, new double[] {7.03504733276842}, GRAD_SUM_SMOOTH);
        check(Reduction.NONE, 0, new double[] {1.631323610599876, 0.736012640235801, 0, 3.935602963553356, 0.384423577755458}, GRAD_SUM);
        check(Reduction.NONE, 0.1, new double[] {1.726554611780715, 0.903263430250539, 0, 3.76181040798673, 0.643418882750437}, GRAD_SUM_SMOOTH);
    }

    @Test
    void classesAlongDimOneOfALargerInput() {
        Variable x = Variable.of(Tensor.of(new double[] {0.1, 0.2, 0.3, -0.4, 1.0, 0.0, -0.5, 0.5, 0.2, 0.2, 0.0, 0.9}, 2, 3, 2), true);
        Variable l = Losses.crossEntropy(x, Tensor.of(new long[] {2, 0, 1, 2}, 2, 2), Tensor.of(new double[] {0.5, 1.5, 2.5}, 3),
                Reduction.MEAN, Losses.IGNORE_INDEX, 0);
        l.backward();
        assertEquals(0.7474683115095717, l.item(), 1e-14);
        assertArrayEquals(new double[] {0.076296178025292, -0.041258648492766, 0.093188362277171, 0.01655760476723, -0.169484540302464,
            0.024701043725536, 0.045959659032734, 0.110480144626717, -0.121734326474127, 0.081845704163024, 0.075774667441393,
            -0.192325848789741}, x.grad().toDoubleArray(), 1e-14);
    }

    @Test
    void weightsOfAnotherLengthOrTypeAreRefused() {
        Variable x = Variable.of(Tensor.of(X.clone(), 5, 4));
        assertTrue(assertThrows(ShapeException.class, () -> Losses.crossEntropy(x, TARGET, Tensor.ones(3), Reduction.MEAN, -100, 0))
                .getMessage().contains("weight must hold one value per class, shape [4], got [3]"));
        assertThrows(IllegalArgumentException.class,
                () -> Losses.crossEntropy(x, TARGET, Tensor.ones(DType.INT64, 4), Reduction.MEAN, -100, 0));
    }
}
