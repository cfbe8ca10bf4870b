package dev.jgrad.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BenchRunnerTest {
    @Test
    void resultsComeInDesignOrderWhateverOrderJmhReportsThem() {
        List<String> design = List.of(
                "W1.matmul.128.gflops", "W1.matmul.256.gflops", "W1.matmul.512.gflops", "W1.matmul.1024.gflops",
                "W2.broadcast_add.1024x1024+1024.ms", "W2.outer_sub.256x1x64-1x256x64.ms", "W3.sum_dim1_keepdim.1024x1024.ms",
                "W4.softmax.256x1024.ms", "W5.mlp_train_step.64-256-256-1.b64.ms", "W6.mha_fwd_bwd.B8.T64.E128.H4.ms",
                "W7.tiny_mlp_train_step.2-16-1.b16.us");
        List<String> jmhOrder = new ArrayList<>(design);
        jmhOrder.sort(String::compareTo);
        assertEquals("W1.matmul.1024.gflops", jmhOrder.get(0));
        List<String> sorted = new ArrayList<>(jmhOrder);
        sorted.sort(BenchRunner.REPORT_ORDER);
        assertEquals(design, sorted);
    }
}
