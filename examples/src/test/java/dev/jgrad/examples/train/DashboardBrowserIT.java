package dev.jgrad.examples.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jgrad.examples.cli.Main;
import dev.jgrad.train.dashboard.Dashboard;
import dev.jgrad.train.tensorboard.SummaryWriter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real browser: headless Chromium, driven by Selenium, opens the page of a folder with two finished
 * runs and one that is training; the list shows them, the picked runs' curves are drawn (the canvas is not blank), and
 * a point the training run logs appears within 5 seconds without a reload. A screenshot is left in
 * {@code target/dashboard.png}. Needs Chromium and its driver ({@code apt-get install chromium chromium-driver}, which
 * .ci/run does); skipped, saying so, where they are missing, except under CI, where that fails.
 */
class DashboardBrowserIT {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path DRIVER = Path.of("/usr/bin/chromedriver");

    @TempDir
    Path tmp;

    private static void train(Path out, String seed) {
        PrintStream o = System.out;
        PrintStream e = System.err;
        try {
            System.setOut(new PrintStream(new ByteArrayOutputStream()));
            System.setErr(new PrintStream(new ByteArrayOutputStream()));
            assertEquals(0, Main.run("train", "mlp", "--epochs", "3", "--seed", seed, "--batch-size", "50", "--out", out.toString()));
        } finally {
            System.setOut(o);
            System.setErr(e);
        }
    }

    @Test
    void thePageListsRunsDrawsTheirCurvesAndFollowsATrainingRun() throws Exception {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER);
        // CI installs them (.ci/run): there a missing browser is a failure, not a skip.
        assertTrue(present || System.getenv("CI") == null, "CI: " + CHROMIUM + " or " + DRIVER + " is missing; .ci/run installs them");
        assumeTrue(present, "skipped: no " + CHROMIUM + " and " + DRIVER + " (apt-get install chromium chromium-driver)");
        Path runs = tmp.resolve("runs");
        train(runs.resolve("mlp-seed1"), "1");
        train(runs.resolve("mlp-seed2"), "2");
        Path live = runs.resolve("gpt-live");
        Files.createDirectories(live);
        long now = System.currentTimeMillis();
        Files.writeString(live.resolve("status.json"), "{\"state\": \"running\", \"pid\": " + ProcessHandle.current().pid() + ", \"started\": "
                + now + ", \"updated\": " + now + ", \"step\": 20, \"total_steps\": 2000}");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toString());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,1000");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).build();
        try (SummaryWriter tb = new SummaryWriter(live.resolve("tb"));
             Dashboard dashboard = Dashboard.start(runs, "127.0.0.1", 0)) {
            for (int step = 10; step <= 20; step += 10) {
                tb.addScalar("loss/train_step", 4.0 - step / 10.0, step);
            }
            tb.flush();
            ChromeDriver browser = new ChromeDriver(service, options);
            try {
                browser.get(dashboard.address().toString());
                WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
                wait.until(d -> d.findElements(By.cssSelector("#runs tbody tr")).size() == 3);
                List<WebElement> rows = browser.findElements(By.cssSelector("#runs tbody tr"));
                assertEquals(List.of("gpt-live", "mlp-seed2", "mlp-seed1"), rows.stream().map(r -> r.getAttribute("data-run")).toList(),
                        "newest first");
                assertTrue(rows.get(0).getText().contains("running 20/2000"), rows.get(0).getText());
                assertTrue(rows.get(1).getText().contains("finished") && rows.get(1).getText().contains("mlp"), rows.get(1).getText());
                // Pick the two finished runs too: their curves overlay the live one's.
                for (String name : List.of("mlp-seed1", "mlp-seed2")) {
                    // The list is redrawn at each poll: click until the box is ticked, whatever was redrawn in between.
                    wait.until(d -> {
                        try {
                            WebElement box = d.findElement(By.cssSelector("input[data-run='" + name + "']"));
                            if (!box.isSelected()) {
                                box.click();
                            }
                            return d.findElement(By.cssSelector("input[data-run='" + name + "']")).isSelected();
                        } catch (StaleElementReferenceException redrawn) {
                            return false;
                        }
                    });
                }
                JavascriptExecutor js = browser;
                wait.until(d -> Boolean.TRUE.equals(js.executeScript(
                        "const c = window.jgradCharts && window.jgradCharts.get('loss/train_step');"
                        + "return !!c && c.plot.series.length === 4;")));
                long inked = (Long) js.executeScript(
                        "const c = document.querySelector(\"div.chart[data-tag='loss/train_step'] canvas\");"
                        + "const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
                        + "let n = 0; for (let i = 3; i < d.length; i += 4) { if (d[i] > 0) n++; } return n;");
                assertTrue(inked > 500, "the chart's canvas has " + inked + " painted pixels");
                js.executeScript("window.notReloaded = true;");
                tb.addScalar("loss/train_step", 1.25, 30);
                tb.flush();
                long start = System.nanoTime();
                new WebDriverWait(browser, Duration.ofSeconds(5)).until(d -> Boolean.TRUE.equals(js.executeScript(
                        "const c = window.jgradCharts.get('loss/train_step'); return c.plot.data[0].includes(30);")));
                double seconds = (System.nanoTime() - start) / 1e9;
                assertEquals(Boolean.TRUE, js.executeScript("return window.notReloaded === true;"), "the point came without a reload");
                assertTrue(seconds < 5, "the new point appeared after " + seconds + " s");
                // The next poll repaints; then the picture shows the new point too.
                Thread.sleep(2000);
                Path shot = Path.of("target", "dashboard.png");
                Files.createDirectories(shot.getParent());
                Files.write(shot, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
            } finally {
                browser.quit();
            }
        }
    }
}
