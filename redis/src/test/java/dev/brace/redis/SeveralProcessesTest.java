package dev.brace.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Separate JVMs, as separate machines would be, draw on one quota within its exact bound. */
class SeveralProcessesTest {

  @Test
  void threeProcessesSharingAQuotaAdmitExactlyItsTokens() throws Exception {
    try (RedisServer server = RedisServer.start()) {
      String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
      List<Process> children = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        children.add(new ProcessBuilder(
                java, "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                QuotaClient.class.getName(), server.uri(), "fleet-quota", "300", "200")
            .redirectErrorStream(true)
            .start());
      }
      int admitted = 0;
      for (Process child : children) {
        StringBuilder output = new StringBuilder();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            output.append(line).append('\n');
            if (line.startsWith("admitted=")) {
              admitted += Integer.parseInt(line.substring("admitted=".length()));
            }
          }
        }
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child did not finish");
        assertEquals(0, child.exitValue(), output.toString());
        assertTrue(output.indexOf("admitted=") >= 0, output.toString());
      }
      assertEquals(300, admitted, "600 calls from three JVMs on a 300-token bucket");
    }
  }
}
