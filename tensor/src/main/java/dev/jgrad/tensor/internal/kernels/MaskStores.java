package dev.jgrad.tensor.internal.kernels;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Comparisons' masks stored as bools, four float vectors' worth at a time. JDK 25 compiles a mask's own store to
 * vector instructions; JDK 17 does not (a (768, 512) comparison took 181 us, as long as a scalar loop, against 22 on JDK
 * 25), so there each mask becomes 0/1 ints converted into a quarter of one byte vector of the same size (no second
 * vector shape: {@link VectorMath#SECOND_SHAPE} says why), and the four quarters go out in one store. Either way every
 * element gets its own comparison's result.
 */
final class MaskStores {
    private static final VectorSpecies<Float> S = VectorMath.S;
    private static final int L = S.length();
    private static final VectorSpecies<Integer> I = VectorSpecies.of(int.class, S.vectorShape());
    private static final VectorSpecies<Byte> B = VectorSpecies.of(byte.class, S.vectorShape());
    /** Where a mask's own store is compiled (measured on JDK 25; JDK 18-24 not measured, so they take the bytes). */
    static final boolean MASK_STORE_COMPILED = Runtime.version().feature() >= 25;

    private MaskStores() {
    }

    /** {@code o[at + k] = m0's lane k}, then m1's from {@code at + L}, m2's and m3's: 4 L bools. */
    static void four(VectorMask<Float> m0, VectorMask<Float> m1, VectorMask<Float> m2, VectorMask<Float> m3, boolean[] o, int at) {
        if (MASK_STORE_COMPILED) {
            m0.intoArray(o, at);
            m1.intoArray(o, at + L);
            m2.intoArray(o, at + 2 * L);
            m3.intoArray(o, at + 3 * L);
            return;
        }
        IntVector zero = IntVector.zero(I);
        ByteVector q0 = (ByteVector) zero.blend(1, m0.cast(I)).convertShape(VectorOperators.I2B, B, 0);
        ByteVector q1 = (ByteVector) zero.blend(1, m1.cast(I)).convertShape(VectorOperators.I2B, B, -1);
        ByteVector q2 = (ByteVector) zero.blend(1, m2.cast(I)).convertShape(VectorOperators.I2B, B, -2);
        ByteVector q3 = (ByteVector) zero.blend(1, m3.cast(I)).convertShape(VectorOperators.I2B, B, -3);
        q0.or(q1).or(q2.or(q3)).intoBooleanArray(o, at);
    }
}
