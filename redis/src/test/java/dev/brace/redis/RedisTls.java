package dev.brace.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway self-signed certificate for {@code localhost} and {@code 127.0.0.1}, made by the
 * JDK's {@code keytool} in a temporary directory, in the forms a test needs: a PKCS#12 key store
 * (for a Java client's trust store) and PEM files of the certificate and its private key (for
 * {@code redis-server}'s {@code --tls-cert-file} and {@code --tls-key-file}).
 */
public final class RedisTls {
  private static final String ALIAS = "redis";

  private final Path directory;
  private final String password;

  private RedisTls(Path directory, String password) {
    this.directory = directory;
    this.password = password;
  }

  /**
   * @return a new certificate, valid for a day
   * @throws IllegalStateException when keytool fails
   */
  public static RedisTls create() {
    try {
      Path directory = Files.createTempDirectory("brace-redis-tls");
      directory.toFile().deleteOnExit();
      RedisTls tls = new RedisTls(directory, "brace-test");
      tls.generate();
      return tls;
    } catch (IOException | GeneralSecurityException | InterruptedException failed) {
      throw new IllegalStateException("could not make a test certificate with keytool", failed);
    }
  }

  private void generate() throws IOException, GeneralSecurityException, InterruptedException {
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Process process = new ProcessBuilder(List.of(keytool, "-genkeypair", "-alias", ALIAS,
            "-keyalg", "RSA", "-keysize", "2048", "-validity", "1", "-dname", "CN=localhost",
            "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
            "-keystore", keyStore().toString(), "-storepass", password, "-keypass", password))
        .redirectErrorStream(true)
        .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException("keytool failed: " + output);
    }
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keyStore())) {
      store.load(in, password.toCharArray());
    }
    Certificate certificate = store.getCertificate(ALIAS);
    Key key = store.getKey(ALIAS, password.toCharArray());
    writePem(certificate(), "CERTIFICATE", certificate.getEncoded());
    // PKCS#8, which OpenSSL (and so redis-server) reads as "PRIVATE KEY".
    writePem(privateKey(), "PRIVATE KEY", key.getEncoded());
    keyStore().toFile().deleteOnExit();
  }

  private static void writePem(Path file, String type, byte[] der) throws IOException {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    Files.writeString(file, "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n", StandardCharsets.US_ASCII);
    file.toFile().deleteOnExit();
  }

  /** @return the certificate, PEM: the server's, and the one a client trusts */
  public Path certificate() {
    return directory.resolve("redis.crt");
  }

  /** @return the certificate's private key, PEM (PKCS#8) */
  public Path privateKey() {
    return directory.resolve("redis.key");
  }

  /** @return a PKCS#12 store holding the key and the certificate, protected by {@link #password()} */
  public Path keyStore() {
    return directory.resolve("redis.p12");
  }

  /** @return the key store's password */
  public String password() {
    return password;
  }
}
