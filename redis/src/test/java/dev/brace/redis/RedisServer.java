package dev.brace.redis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} process on a free loopback port, without persistence, started and
 * stopped by a test. The binary must be on the PATH ({@code .ci/run} installs it): under {@code
 * CI=true} a test that cannot find it fails; elsewhere it is skipped, loudly. Public, and shipped in
 * this module's test jar, so the Spring Boot starter's tests start their servers the same way.
 */
public final class RedisServer implements AutoCloseable {
  private final int port;
  /** The TLS port, or 0 when the server speaks plain TCP only. */
  private final int tlsPort;
  private final List<String> extraArguments;
  /** What {@code --requirepass} in the arguments asks for, or null: this class's own commands send it. */
  private final String password;
  /** A Sentinel's configuration file, which it rewrites as it learns; null for a data server. */
  private final java.nio.file.Path sentinelConfig;
  private Process process;

  private RedisServer(int port, int tlsPort, List<String> extraArguments) {
    this(port, tlsPort, extraArguments, null);
  }

  private RedisServer(int port, int tlsPort, List<String> extraArguments, java.nio.file.Path sentinelConfig) {
    this.port = port;
    this.tlsPort = tlsPort;
    this.extraArguments = extraArguments;
    this.sentinelConfig = sentinelConfig;
    int requirepass = extraArguments.indexOf("--requirepass");
    this.password = requirepass >= 0 && requirepass + 1 < extraArguments.size() ? extraArguments.get(requirepass + 1) : null;
  }

  /** @return a started server on a free port */
  public static RedisServer start() {
    return start(List.of());
  }

  /**
   * @param extraArguments more {@code redis-server} options, e.g. cluster mode, or {@code
   *     --requirepass secret} (then every command of this class authenticates first)
   * @return a started server on a free port
   */
  public static RedisServer start(List<String> extraArguments) {
    RedisServer server = new RedisServer(freePort(), 0, List.copyOf(extraArguments));
    server.restart();
    return server;
  }

  /**
   * A server that also speaks TLS, on {@link #tlsPort()}, with the certificate and key of {@code
   * tls}; clients are not asked for a certificate. The plain port stays open for the test's own
   * commands ({@link #command}), so what a client under test does is what travels over TLS.
   *
   * @param tls the server's certificate and key
   * @param extraArguments more {@code redis-server} options
   * @return a started server
   * @throws IllegalStateException when this {@code redis-server} was built without TLS (it refuses
   *     {@code --tls-port}); the message says so
   */
  public static RedisServer startWithTls(RedisTls tls, List<String> extraArguments) {
    List<String> arguments = new ArrayList<>(List.of(
        "--tls-cert-file", tls.certificate().toString(),
        "--tls-key-file", tls.privateKey().toString(),
        "--tls-ca-cert-file", tls.certificate().toString(),
        "--tls-auth-clients", "no"));
    arguments.addAll(extraArguments);
    int tlsPort = freePort();
    arguments.addAll(0, List.of("--tls-port", Integer.toString(tlsPort)));
    RedisServer server = new RedisServer(freePort(), tlsPort, List.copyOf(arguments));
    server.restart();
    return server;
  }

  /**
   * A Redis Sentinel ({@code redis-server <config> --sentinel}) that monitors {@code primary} as
   * {@code master}, with a quorum of one; it answers {@code SENTINEL get-master-addr-by-name} with
   * the primary's address from the start.
   *
   * @param primary the data server it watches
   * @param master the name clients ask for ({@code spring.data.redis.sentinel.master})
   * @return a started sentinel on a free port
   */
  public static RedisServer startSentinel(RedisServer primary, String master) {
    try {
      java.nio.file.Path config = java.nio.file.Files.createTempFile("brace-sentinel-", ".conf");
      config.toFile().deleteOnExit();
      java.nio.file.Files.writeString(config, "sentinel monitor " + master + " 127.0.0.1 " + primary.port() + " 1\n",
          StandardCharsets.US_ASCII);
      RedisServer sentinel = new RedisServer(freePort(), 0, List.of(), config);
      sentinel.restart();
      return sentinel;
    } catch (IOException unwritable) {
      throw new IllegalStateException("could not write a sentinel configuration", unwritable);
    }
  }

  /** @return the plain TCP port */
  public int port() {
    return port;
  }

  /** @return the TLS port; 0 unless started by {@link #startWithTls} */
  public int tlsPort() {
    return tlsPort;
  }

  /** @return {@code redis://127.0.0.1:<port>}, without the password */
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /** Starts the process again on the same port (after {@link #stop()}); data starts empty. */
  public void restart() {
    String binary = binary("redis-server");
    List<String> command = new ArrayList<>(List.of(binary));
    if (sentinelConfig != null) {
      command.addAll(List.of(sentinelConfig.toString(), "--sentinel"));
    }
    command.addAll(List.of("--port", Integer.toString(port), "--bind", "127.0.0.1", "--protected-mode", "no"));
    if (sentinelConfig == null) {
      command.addAll(List.of("--save", "", "--appendonly", "no"));
    }
    command.addAll(extraArguments);
    java.io.File log;
    try {
      // Kept until the test ends: what the server said is the reason when it does not come up.
      log = java.io.File.createTempFile("brace-redis-" + port + "-", ".log");
      log.deleteOnExit();
      process = new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(log)
          .start();
    } catch (IOException cannotStart) {
      throw new IllegalStateException("could not start " + binary, cannotStart);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!answersPing()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException("redis-server did not come up on port " + port + ": " + tail(log));
      }
      sleep(10);
    }
  }

  private static String tail(java.io.File log) {
    try {
      String text = java.nio.file.Files.readString(log.toPath(), StandardCharsets.UTF_8);
      return text.length() > 2_000 ? text.substring(text.length() - 2_000) : text;
    } catch (IOException unreadable) {
      return "(no log: " + unreadable + ")";
    }
  }

  /** Kills the process and waits until the port no longer answers. */
  public void stop() {
    if (process == null) {
      return;
    }
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
    process = null;
  }

  /** Freezes the process ({@code SIGSTOP}): connections stay open, nothing is answered. */
  void pause() {
    signal("-STOP");
  }

  /** Lets a {@link #pause() paused} process run again ({@code SIGCONT}). */
  void resume() {
    signal("-CONT");
  }

  private void signal(String signal) {
    try {
      Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill " + signal + " " + process.pid() + " failed");
      }
    } catch (IOException | InterruptedException failed) {
      throw new IllegalStateException("kill " + signal + " " + process.pid(), failed);
    }
  }

  /**
   * Sends one command on a connection of its own and reads the reply.
   *
   * @return a {@link String} (simple or bulk string, null for a null bulk), {@link Long} or {@link
   *     List} of those
   * @throws IllegalStateException when Redis answers with an error or cannot be reached
   */
  public Object command(String... arguments) {
    try (Connection connection = connect()) {
      connection.send(arguments);
      return connection.reply();
    }
  }

  /** @return a plain connection (no client library), authenticated if the server asks for a password */
  Connection connect() {
    Connection connection = new Connection(port);
    if (password != null) {
      connection.send("AUTH", password);
      connection.reply();
    }
    return connection;
  }

  /** A raw RESP connection: send now, read the reply later. */
  static final class Connection implements AutoCloseable {
    private final int port;
    private final Socket socket = new Socket();
    private final java.io.DataInputStream in;

    private Connection(int port) {
      this.port = port;
      try {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
        socket.setSoTimeout(30_000);
        in = new java.io.DataInputStream(new java.io.BufferedInputStream(socket.getInputStream()));
      } catch (IOException failed) {
        throw new IllegalStateException("redis-server on port " + port, failed);
      }
    }

    /** Writes a command without waiting for its reply. */
    void send(String... arguments) {
      StringBuilder request = new StringBuilder().append('*').append(arguments.length).append("\r\n");
      for (String argument : arguments) {
        request.append('$').append(argument.getBytes(StandardCharsets.UTF_8).length).append("\r\n")
            .append(argument).append("\r\n");
      }
      try {
        OutputStream out = socket.getOutputStream();
        out.write(request.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
      } catch (IOException failed) {
        throw new IllegalStateException("redis-server on port " + port + ": " + String.join(" ", arguments), failed);
      }
    }

    /** @return the next reply, as {@link RedisServer#command} describes */
    Object reply() {
      try {
        return RedisServer.reply(in);
      } catch (IOException failed) {
        throw new IllegalStateException("redis-server on port " + port, failed);
      }
    }

    @Override
    public void close() {
      try {
        socket.close();
      } catch (IOException ignored) {
        // Closing.
      }
    }
  }

  private static Object reply(java.io.DataInputStream in) throws IOException {
    char type = (char) in.readUnsignedByte();
    String line = line(in);
    switch (type) {
      case '+':
        return line;
      case '-':
        throw new IllegalStateException(line);
      case ':':
        return Long.parseLong(line);
      case '$': {
        int length = Integer.parseInt(line);
        if (length < 0) {
          return null;
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        line(in);
        return new String(bytes, StandardCharsets.UTF_8);
      }
      case '*': {
        List<Object> items = new ArrayList<>();
        for (int i = Integer.parseInt(line); i > 0; i--) {
          items.add(reply(in));
        }
        return items;
      }
      default:
        throw new IOException("unexpected reply type " + type);
    }
  }

  private static String line(java.io.DataInputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int b = in.readUnsignedByte(); b != '\r'; b = in.readUnsignedByte()) {
      line.append((char) b);
    }
    in.readUnsignedByte();
    return line.toString();
  }

  /**
   * Holds every script sent from now on in the server, unrun, until {@link #runScripts()} ({@code
   * CLIENT PAUSE … WRITE}: scripts count as writes; reads and {@code CLIENT} commands still run).
   * A caller's script is then surely in flight for as long as a test needs, however slow the machine.
   */
  void holdScripts() {
    command("CLIENT", "PAUSE", "120000", "WRITE");
  }

  /** Lets the scripts held by {@link #holdScripts()} run, in the order they came. */
  void runScripts() {
    command("CLIENT", "UNPAUSE");
  }

  /** @return EVAL and EVALSHA calls this server has run, from INFO commandstats */
  public long scriptCalls() {
    long calls = 0;
    for (String line : ((String) command("INFO", "commandstats")).split("\r?\n")) {
      if (line.startsWith("cmdstat_eval:") || line.startsWith("cmdstat_evalsha:")) {
        String field = line.substring(line.indexOf("calls=") + 6);
        calls += Long.parseLong(field.substring(0, field.indexOf(',')));
      }
    }
    return calls;
  }

  /** @return the ids of clients whose name ({@code CLIENT SETNAME}) starts with {@code prefix} */
  public List<String> clientIds(String prefix) {
    List<String> ids = new ArrayList<>();
    for (String client : ((String) command("CLIENT", "LIST")).split("\n")) {
      String id = null;
      String name = null;
      for (String field : client.trim().split(" ")) {
        if (field.startsWith("id=")) {
          id = field.substring(3);
        } else if (field.startsWith("name=")) {
          name = field.substring(5);
        }
      }
      if (id != null && name != null && name.startsWith(prefix)) {
        ids.add(id);
      }
    }
    return ids;
  }

  @Override
  public void close() {
    stop();
  }

  /** Up means answering, even if only to say a password is needed ({@code -NOAUTH}). */
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
      String answer = read > 0 ? new String(reply, 0, read, StandardCharsets.US_ASCII) : "";
      return answer.startsWith("+PONG") || answer.startsWith("-NOAUTH");
    } catch (IOException notYet) {
      return false;
    }
  }

  /** @return the path of a Redis program ({@code redis-server}, {@code redis-cli}) on the PATH */
  public static String binary(String program) {
    String path = System.getenv("PATH");
    for (String folder : (path == null ? "" : path).split(File.pathSeparator)) {
      File candidate = new File(folder, program);
      if (candidate.canExecute()) {
        return candidate.getPath();
      }
    }
    String missing = program + " is not on the PATH; these tests need a real Redis. Install it "
        + "(apt-get install -y redis-server; .ci/run does this) and run the tests again.";
    // CI (CI=true, as .ci/run runs) must run them: fail there. On a developer's machine with only
    // a JDK and Maven, skip them loudly instead of failing the whole build.
    if ("true".equalsIgnoreCase(System.getenv("CI")) || Boolean.getBoolean("brace.redis.required")) {
      throw new IllegalStateException(missing);
    }
    System.err.println("SKIPPED brace-redis tests: " + missing);
    throw new org.opentest4j.TestAbortedException(missing);
  }

  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException none) {
      throw new IllegalStateException("no free port", none);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(interrupted);
    }
  }
}
