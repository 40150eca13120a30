package dev.brace.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Three JVMs ({@link FleetFaultClient}) share two quotas and a breaker in one redis-server while it
 * is frozen past the command timeout, drops every connection with a script in flight, and is
 * killed and restarted; each JVM refuses while Redis is unavailable. The big quota is never used
 * up, so every token is accounted for; the small one is used up in each life of the server, so its
 * bound is reached. Checked: every call ends within the command timeout (plus slack); each JVM
 * hears each outage once and its end once, and each of the three faults is one outage; in each life of the server the
 * admissions are at most the tokens taken in Redis, which are at most the quota, and a token taken
 * but not admitted is one whose command failed under its caller; the breaker, fed only successes,
 * never opens.
 */
class RedisFleetFaultTest {
  private static final boolean LONG = Boolean.getBoolean("reliability.long");
  /**
   * Above what a healthy server takes even when the machine, running four JVMs among others' builds,
   * stalls now and then (at a load of 30, 750 ms was not always enough; a late answer is an outage
   * of its own, which the test tells from the ones it made).
   */
  private static final long TIMEOUT_MILLIS = 1_000;
  private static final long SLACK_MILLIS = 1_000;
  private static final int BIG = 100_000;
  private static final int SMALL = 150;
  private static final long UP_MILLIS = LONG ? 5_000 : 500;
  /** A freeze longer than the timeout plus slack, so a call that waited it out fails the bound. */
  private static final long FREEZE_MILLIS = LONG ? 5_000 : 3_000;
  private static final long OUTAGE_MILLIS = LONG ? 5_000 : 1_000;

  /** A child JVM and what it printed. */
  private static final class Machine {
    final String name;
    final Process process;
    final Writer stdin;
    final List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
    final CompletableFuture<Void> ready = new CompletableFuture<>();
    final CompletableFuture<Void> done = new CompletableFuture<>();

    Machine(String name, Process process) {
      this.name = name;
      this.process = process;
      this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
      Thread reader = new Thread(() -> {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line = out.readLine(); line != null; line = out.readLine()) {
            lines.add(line);
            if (line.equals("ready")) {
              ready.complete(null);
            }
          }
        } catch (java.io.IOException ended) {
          // Reported by the assertions on what was read.
        }
        done.complete(null);
      }, name + "-output");
      reader.setDaemon(true);
      reader.start();
    }

    void tell(String command) throws java.io.IOException {
      stdin.write(command + "\n");
      stdin.flush();
    }

    /** @return the backend events it has printed so far: kind, epoch ms, exception ("-" if none) */
    List<String[]> events() {
      return lines.stream().filter(line -> line.startsWith("event ")).map(line -> line.substring(6).split(" ")).toList();
    }

    /** @return whether it has recovered from an outage since {@code sinceMillis} and is up now */
    boolean recoveredSince(long sinceMillis) {
      List<String[]> events = events();
      return !events.isEmpty()
          && events.get(events.size() - 1)[0].equals("backend.recovered")
          && Long.parseLong(events.get(events.size() - 1)[1]) >= sinceMillis;
    }

    /** @return the epoch milliseconds printed after {@code label} */
    List<Long> times(String label) {
      for (String line : lines) {
        if (line.startsWith(label + " ")) {
          String list = line.substring(label.length() + 1).trim();
          return list.isEmpty() ? List.of() : Arrays.stream(list.split(",")).map(Long::valueOf).toList();
        }
      }
      throw new AssertionError(name + " printed no " + label + ": " + lines);
    }

    /** @return the number after {@code field=} on the summary line */
    long summary(String field) {
      for (String line : lines) {
        if (line.startsWith("summary ")) {
          for (String part : line.split(" ")) {
            if (part.startsWith(field + "=")) {
              return Long.parseLong(part.substring(field.length() + 1));
            }
          }
        }
      }
      throw new AssertionError(name + " printed no summary " + field + ": " + lines);
    }
  }

  @Test
  void threeJvmsOnOneQuotaThroughAFreezeADroppedConnectionAndARestart() throws Exception {
    long began = System.nanoTime();
    try (RedisServer server = RedisServer.start()) {
      String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
      List<Machine> fleet = new ArrayList<>();
      try {
        for (int i = 0; i < 3; i++) {
          String name = "brace-fleet-child-" + i;
          fleet.add(new Machine(name, new ProcessBuilder(
                  java, "-XX:TieredStopAtLevel=1", "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                  "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
                  FleetFaultClient.class.getName(), server.uri(), name, Long.toString(TIMEOUT_MILLIS),
                  Integer.toString(BIG), Integer.toString(SMALL))
              .redirectErrorStream(true)
              .start()));
        }
        for (Machine machine : fleet) {
          // Three JVMs starting at once on a loaded two-core machine have taken over a minute.
          machine.ready.get(110, TimeUnit.SECONDS);
        }
        for (Machine machine : fleet) {
          machine.tell("go");
        }
        Thread.sleep(UP_MILLIS);

        // Outage 1: frozen past the command timeout.
        long[][] faults = new long[3][2];
        faults[0][0] = System.currentTimeMillis();
        server.pause();
        Thread.sleep(FREEZE_MILLIS);
        faults[0][1] = System.currentTimeMillis();
        server.resume();
        awaitRecoveries(fleet, faults[0][0]);
        Thread.sleep(UP_MILLIS);

        // Outage 2: every child's connection dropped right after the server ran its script. Every
        // command is held (CLIENT PAUSE ALL) for 600 ms, less than the command timeout; the kills,
        // sent after 400 ms, are held behind the children's scripts and run right after them.
        List<String> children = server.clientIds("brace-fleet-child-");
        assertEquals(3, children.size(), "one connection per child: " + children);
        faults[1][0] = System.currentTimeMillis();
        try (RedisServer.Connection admin = server.connect()) {
          admin.send("CLIENT", "PAUSE", "600", "ALL");
          assertEquals("OK", admin.reply());
          Thread.sleep(400);
          for (String id : children) {
            admin.send("CLIENT", "KILL", "ID", id);
          }
          for (int i = 0; i < children.size(); i++) {
            assertEquals(1L, admin.reply());
          }
        }
        faults[1][1] = System.currentTimeMillis();
        awaitRecoveries(fleet, faults[1][0]);
        Thread.sleep(UP_MILLIS);

        awaitUsedUp(server);

        // Outage 3: the first life of the server ends. Scripts are held (and never run) while the
        // tokens taken are read, then the process is killed; its data is gone with it.
        faults[2][0] = System.currentTimeMillis();
        server.command("CLIENT", "PAUSE", "30000", "WRITE");
        long takenBig1 = RedisFaultTest.tokensTaken(server, "brace:ratelimit:fleet-big", interval(BIG));
        long takenSmall1 = RedisFaultTest.tokensTaken(server, "brace:ratelimit:fleet-small", interval(SMALL));
        String breakerState1 = (String) server.command("HGET", "brace:circuit:fleet-breaker", "state");
        server.stop();
        long firstLifeEnded = System.currentTimeMillis();
        Thread.sleep(OUTAGE_MILLIS);
        faults[2][1] = System.currentTimeMillis();
        server.restart();
        awaitRecoveries(fleet, faults[2][0]);
        awaitUsedUp(server);
        Thread.sleep(UP_MILLIS);

        for (Machine machine : fleet) {
          machine.tell("stop");
        }
        for (Machine machine : fleet) {
          machine.done.get(60, TimeUnit.SECONDS);
          assertTrue(machine.process.waitFor(30, TimeUnit.SECONDS), machine.name + " did not end");
          assertEquals(0, machine.process.exitValue(), machine.name + ": " + machine.lines);
        }
        long takenBig2 = RedisFaultTest.tokensTaken(server, "brace:ratelimit:fleet-big", interval(BIG));
        long takenSmall2 = RedisFaultTest.tokensTaken(server, "brace:ratelimit:fleet-small", interval(SMALL));
        String breakerState2 = (String) server.command("HGET", "brace:circuit:fleet-breaker", "state");

        StringBuilder perMachine = new StringBuilder();
        for (Machine machine : fleet) {
          long slowest = machine.summary("slowest_ms");
          assertTrue(slowest <= TIMEOUT_MILLIS + SLACK_MILLIS,
              machine.name + ": slowest call " + slowest + " ms, bound " + (TIMEOUT_MILLIS + SLACK_MILLIS));
          long unplanned = outagesOnceEach(machine, faults);
          assertEquals(0, machine.summary("opened"), machine.name + ": the breaker, fed only successes, opened");
          String summary = machine.lines.stream().filter(l -> l.startsWith("summary ")).findFirst().orElseThrow();
          assertTrue(summary.contains("BACKEND_REFUSED:"), machine.name + " refused while Redis was unavailable: " + summary);
          assertTrue(!summary.contains("UNEXPECTED") && !summary.contains("CIRCUIT_OPEN"), machine.name + ": " + machine.lines);
          perMachine.append(' ').append(machine.name).append('{').append(summary.substring("summary ".length()))
              .append(" outages_not_made_by_the_test=").append(unplanned).append('}');
        }
        assertTrue(breakerState1 == null || breakerState1.equals("C"), "breaker state " + breakerState1);
        assertTrue(breakerState2 == null || breakerState2.equals("C"), "breaker state " + breakerState2);

        String big = account(fleet, "big", firstLifeEnded, takenBig1, takenBig2, BIG);
        String small = account(fleet, "small", firstLifeEnded, takenSmall1, takenSmall2, SMALL);
        System.out.println("[reliability] redis-fleet-faults mode=" + (LONG ? "long" : "quick")
            + " jvms=3 faults=freeze,connections-dropped-mid-script,kill-and-restart fallback=refuse"
            + " big_quota{" + big + "} small_quota{" + small + "}" + perMachine
            + " invariants=bounded-calls,events-once-per-outage-per-jvm,each-fault-one-outage,admitted<=taken<=quota-per-life,"
            + "taken-admitted<=failed-commands,breaker-fed-successes-never-opens seconds="
            + String.format(Locale.ROOT, "%.1f", (System.nanoTime() - began) / 1e9));
      } finally {
        for (Machine machine : fleet) {
          machine.process.destroyForcibly();
        }
      }
    }
  }

  /** Waits (up to 30 s) until the small quota is used up in this life of the server. */
  private static void awaitUsedUp(RedisServer server) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (RedisFaultTest.tokensTaken(server, "brace:ratelimit:fleet-small", interval(SMALL)) < SMALL
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
  }

  /** Waits (up to 15 s) until every machine has recovered from an outage since {@code sinceMillis}. */
  private static void awaitRecoveries(List<Machine> fleet, long sinceMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    for (Machine machine : fleet) {
      while (!machine.recoveredSince(sinceMillis) && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
    }
  }

  /**
   * Checks that a machine heard each outage once: its backend events alternate, an outage then its
   * end, starting with an outage and ending up; each fault the test made began exactly one outage
   * (within the fault, or a command timeout and the slack after it); any other outage began with a
   * command timing out (an answer later than the timeout, on a machine that stalled: an outage of its
   * own, reported once too).
   *
   * @return how many outages the test did not make
   */
  private static long outagesOnceEach(Machine machine, long[][] faults) {
    List<String[]> events = machine.events();
    String seen = events.stream().map(e -> e[0] + "@" + e[1] + "(" + e[2] + ")").toList().toString();
    for (int i = 0; i < events.size(); i++) {
      assertEquals(i % 2 == 0 ? "backend.unavailable" : "backend.recovered", events.get(i)[0],
          machine.name + ": an outage, then its end, each once: " + seen);
    }
    assertEquals(0, events.size() % 2, machine.name + " ended up: " + seen);
    long unplanned = 0;
    int[] perFault = new int[faults.length];
    for (int i = 0; i < events.size(); i += 2) {
      long at = Long.parseLong(events.get(i)[1]);
      int fault = -1;
      for (int f = 0; f < faults.length; f++) {
        if (at >= faults[f][0] && at <= faults[f][1] + TIMEOUT_MILLIS + SLACK_MILLIS) {
          fault = f;
        }
      }
      if (fault >= 0) {
        perFault[fault]++;
      } else {
        assertEquals(java.util.concurrent.TimeoutException.class.getName(), events.get(i)[2],
            machine.name + ": an outage no fault explains began otherwise than by a late answer: " + seen);
        unplanned++;
      }
    }
    assertEquals(List.of(1, 1, 1), java.util.Arrays.stream(perFault).boxed().toList(),
        machine.name + ": each fault began one outage: " + seen);
    return unplanned;
  }

  /** Checks one quota in both lives of the server; @return what was counted, for the report */
  private static String account(List<Machine> fleet, String quota, long firstLifeEnded, long taken1, long taken2, int tokens) {
    long admitted1 = 0;
    long admitted2 = 0;
    long failed1 = 0;
    long failed2 = 0;
    for (Machine machine : fleet) {
      for (long at : machine.times("admitted-" + quota)) {
        if (at <= firstLifeEnded) {
          admitted1++;
        } else {
          admitted2++;
        }
      }
      for (long at : machine.times("failed-" + quota)) {
        if (at <= firstLifeEnded) {
          failed1++;
        } else {
          failed2++;
        }
      }
    }
    String counts = "life1:admitted=" + admitted1 + ",taken=" + taken1 + ",failed=" + failed1
        + " life2:admitted=" + admitted2 + ",taken=" + taken2 + ",failed=" + failed2 + " quota=" + tokens;
    assertTrue(admitted1 <= taken1 && taken1 <= tokens, quota + ": " + counts);
    assertTrue(admitted2 <= taken2 && taken2 <= tokens, quota + ": " + counts);
    assertTrue(taken1 - admitted1 <= failed1 && taken2 - admitted2 <= failed2, quota + ": tokens lost without a failed command: " + counts);
    if (tokens == SMALL) {
      assertTrue(taken1 == tokens && taken2 == tokens, "the small quota is used up in each life: " + counts);
    }
    return counts;
  }

  /** @return microseconds between tokens of a quota of {@code tokens} per 1000 h */
  private static long interval(int tokens) {
    return 1000L * 3600 * 1_000_000 / tokens;
  }
}
