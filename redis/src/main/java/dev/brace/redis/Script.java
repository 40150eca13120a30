package dev.brace.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** A Lua script shipped in this jar, with the SHA-1 Redis caches it under. */
final class Script {
  final String name;
  final String text;
  final String sha;

  private Script(String name, String text) {
    this.name = name;
    this.text = text;
    this.sha = sha1(text);
  }

  /**
   * @param preludes scripts whose functions the body uses, in order
   * @param body the script's own file
   * @return the script: the preludes followed by the body
   */
  static Script load(String body, String... preludes) {
    StringBuilder text = new StringBuilder();
    for (String prelude : preludes) {
      text.append(resource(prelude)).append('\n');
    }
    return new Script(body, text.append(resource(body)).toString());
  }

  private static String resource(String file) {
    try (InputStream in = Script.class.getResourceAsStream(file)) {
      if (in == null) {
        throw new IllegalStateException("missing script " + file + " next to " + Script.class.getName());
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException unreadable) {
      throw new UncheckedIOException(unreadable);
    }
  }

  private static String sha1(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder(40);
      for (byte b : digest) {
        hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException impossible) {
      throw new IllegalStateException(impossible);
    }
  }

  static final String PRELUDE = "prelude.lua";
  static final String CIRCUIT_PRELUDE = "circuit-prelude.lua";

  static final Script RATELIMIT_TAKE = load("ratelimit-take.lua", PRELUDE);
  static final Script RATELIMIT_GIVE_BACK = load("ratelimit-give-back.lua", PRELUDE);
  static final Script RATELIMIT_OWED = load("ratelimit-owed.lua", PRELUDE);
  static final Script RATELIMIT_ADAPTIVE_TAKE = load("ratelimit-adaptive-take.lua", PRELUDE);
  static final Script RATELIMIT_ADAPTIVE_THROTTLED = load("ratelimit-adaptive-throttled.lua", PRELUDE);
  static final Script RATELIMIT_ADAPTIVE_READ = load("ratelimit-adaptive-read.lua", PRELUDE);
  static final Script CIRCUIT_ACQUIRE = load("circuit-acquire.lua", PRELUDE, CIRCUIT_PRELUDE);
  static final Script CIRCUIT_RECORD = load("circuit-record.lua", PRELUDE, CIRCUIT_PRELUDE);
  static final Script CIRCUIT_RELEASE = load("circuit-release.lua", PRELUDE, CIRCUIT_PRELUDE);
  static final Script CIRCUIT_RESET = load("circuit-reset.lua", PRELUDE, CIRCUIT_PRELUDE);
  static final Script CIRCUIT_READ = load("circuit-read.lua", PRELUDE, CIRCUIT_PRELUDE);
  static final Script PROBE = load("probe.lua");
}
