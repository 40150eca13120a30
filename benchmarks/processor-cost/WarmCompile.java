import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * What compiling a set of sources costs {@code javac} itself, without its JIT: each set compiled
 * again and again in one JVM ({@code javax.tools}, {@code -proc:none}), round robin, and the CPU
 * time of the compiling thread taken once the compiler is warm. A cold {@code javac}'s CPU is
 * mostly the JIT compiling {@code javac}, which blurs a difference of a few percent in what it is
 * given to compile; this shows that difference alone.
 *
 * <pre>
 *   java WarmCompile.java CLASSPATH ROUNDS WARMUP LABEL=SOURCE_LIST[=CLASSPATH] ...
 * </pre>
 *
 * A source list holds one path per line; a set compiles against its own classpath when it names
 * one (the wrappers another checkout's processor wrote, against that checkout's runtime). Prints a Markdown table of each set's median over the
 * rounds after the first WARMUP, with the lowest and highest.
 */
public final class WarmCompile {
  public static void main(String[] args) throws Exception {
    if (args.length < 4) {
      throw new IllegalArgumentException("usage: WarmCompile CLASSPATH ROUNDS WARMUP LABEL=SOURCE_LIST...");
    }
    String classpath = args[0];
    int rounds = Integer.parseInt(args[1]);
    int warmup = Integer.parseInt(args[2]);
    if (warmup >= rounds) {
      throw new IllegalArgumentException("WARMUP (" + warmup + ") must be below ROUNDS (" + rounds + ")");
    }
    Map<String, List<String>> sets = new LinkedHashMap<>();
    Map<String, String> classpaths = new LinkedHashMap<>();
    for (int i = 3; i < args.length; i++) {
      String[] parts = args[i].split("=", 3);
      if (parts.length < 2 || parts[0].isEmpty()) {
        throw new IllegalArgumentException("not LABEL=SOURCE_LIST[=CLASSPATH]: " + args[i]);
      }
      sets.put(parts[0], Files.readAllLines(Path.of(parts[1])));
      classpaths.put(parts[0], parts.length == 3 ? parts[2] : classpath);
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Map<String, List<Double>> seconds = new LinkedHashMap<>();
    for (int round = 0; round < rounds; round++) {
      for (Map.Entry<String, List<String>> set : sets.entrySet()) {
        Path out = Files.createTempDirectory("warm-compile");
        List<String> options = new ArrayList<>(List.of("--release", "17", "-proc:none", "-d", out.toString(),
            "-cp", classpaths.get(set.getKey())));
        options.addAll(set.getValue());
        System.gc();
        long start = threads.getCurrentThreadCpuTime();
        int status = javac.run(null, null, null, options.toArray(String[]::new));
        double taken = (threads.getCurrentThreadCpuTime() - start) / 1e9;
        if (status != 0) {
          throw new IllegalStateException(set.getKey() + ": javac exited with " + status);
        }
        if (round >= warmup) {
          seconds.computeIfAbsent(set.getKey(), key -> new ArrayList<>()).add(taken);
        }
        System.err.printf("round %d/%d %s: %.2f s%n", round + 1, rounds, set.getKey(), taken);
      }
    }
    System.out.println("| sources | warm CPU s (median) | lowest | highest |");
    System.out.println("|---|---:|---:|---:|");
    seconds.forEach((label, taken) -> {
      Collections.sort(taken);
      System.out.printf("| %s | %.2f | %.2f | %.2f |%n", label, taken.get(taken.size() / 2), taken.get(0),
          taken.get(taken.size() - 1));
    });
  }
}
