package dev.brace.benchmarks;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} on a free loopback port, without persistence
 * ({@code --save '' --appendonly no}), started by a benchmark and killed after it. The same
 * settings as brace-redis's tests; the binary must be on the PATH.
 */
final class RedisServerProcess implements AutoCloseable {
  private final int port;
  private final Process process;

  private RedisServerProcess(int port, Process process) {
    this.port = port;
    this.process = process;
  }

  /** @return a server that answers PING */
  static RedisServerProcess start() {
    int port = freePort();
    String binary = binary();
    Process process;
    try {
      process = new ProcessBuilder(
              binary, "--port", Integer.toString(port), "--bind", "127.0.0.1",
              "--save", "", "--appendonly", "no", "--protected-mode", "no")
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
    } catch (IOException cannotStart) {
      throw new IllegalStateException("could not start " + binary, cannotStart);
    }
    RedisServerProcess server = new RedisServerProcess(port, process);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!server.answersPing()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new IllegalStateException("redis-server did not come up on port " + port);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
        throw new IllegalStateException(interrupted);
      }
    }
    return server;
  }

  String uri() {
    return "redis://127.0.0.1:" + port;
  }

  @Override
  public void close() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private boolean answersPing() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
      socket.setSoTimeout(500);
      OutputStream out = socket.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] reply = new byte[7];
      int read = in.read(reply);
      return read > 0 && new String(reply, 0, read, StandardCharsets.US_ASCII).startsWith("+PONG");
    } catch (IOException notYet) {
      return false;
    }
  }

  private static String binary() {
    String path = System.getenv("PATH");
    for (String folder : (path == null ? "" : path).split(File.pathSeparator)) {
      File candidate = new File(folder, "redis-server");
      if (candidate.canExecute()) {
        return candidate.getPath();
      }
    }
    throw new IllegalStateException(
        "redis-server is not on the PATH; the Redis benchmarks need it (apt-get install -y redis-server)");
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException none) {
      throw new IllegalStateException("no free port", none);
    }
  }
}
