package dev.brace.runtime.internal.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Secrets leave URLs and messages; everything else stays byte for byte. */
class RedactorTest {

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '~',
      value = {
        "https://user:pass@api.example.com/v1 | https://api.example.com/v1",
        "https://user@api.example.com/v1 | https://api.example.com/v1",
        "redis://:hunter2@cache:6379/0 | redis://cache:6379/0",
        "https://a:b@host | https://host",
        "https://host/x?api_key=abc123 | https://host/x?api_key=REDACTED",
        "https://host/x?APIKEY=abc&page=2 | https://host/x?APIKEY=REDACTED&page=2",
        "https://host/x?page=2&access_token=t0k | https://host/x?page=2&access_token=REDACTED",
        "https://host/cb#access_token=xyz&token_type=bearer | https://host/cb#access_token=REDACTED&token_type=bearer",
        "https://host/x?refresh_token=r&Token=t | https://host/x?refresh_token=REDACTED&Token=REDACTED",
        "https://host/x?secret=s;client_secret=cs | https://host/x?secret=REDACTED;client_secret=REDACTED",
        "https://host/login?user=bob&password=pw&passwd=pw2 | https://host/login?user=bob&password=REDACTED&passwd=REDACTED",
        "https://s3.example.com/o?X=1&signature=abc%2Fdef&sig=zz | https://s3.example.com/o?X=1&signature=REDACTED&sig=REDACTED",
        "https://host/x?auth=basic&key=k1 | https://host/x?auth=REDACTED&key=REDACTED",
        "https://u:p@host/x?api_key=abc&q=cats | https://host/x?api_key=REDACTED&q=cats",
        "GET https://u:p@host/x?api_key=abc failed | GET https://host/x?api_key=REDACTED failed",
        "call to 'https://host/x?token=abc' refused | call to 'https://host/x?token=REDACTED' refused",
        "failed (https://host/x?token=abc). Retrying | failed (https://host/x?token=REDACTED). Retrying",
        "two: http://a:1@h1/p and http://h2/q?secret=s | two: http://h1/p and http://h2/q?secret=REDACTED",
        "/relative/path?password=pw | /relative/path?password=REDACTED",
        "https://host/x?token= | https://host/x?token=",
      })
  void removesSecrets(String input, String expected) {
    assertEquals(expected, Redactor.redact(input));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "https://api.example.com/v1/users?page=2&sort=name#top",
        "https://host/x?monkey=1&tokens=3&keyboard=qwerty&author=me",
        "https://host/users/alice@example.com/profile",
        "mail alice@example.com about it",
        "Connection refused: connect",
        "Is the service down? Nobody knows #incident",
        "https://host/search?q=what+is+a+token",
        "java.io.IOException: 503 from https://host:8443/v2/items",
        "",
      })
  void leavesHarmlessTextAlone(String text) {
    assertEquals(text, Redactor.redact(text));
  }

  @Test
  void returnsTheSameInstanceWhenNothingChanges() {
    String plain = "timeout after 2000 ms on https://host/x";
    assertSame(plain, Redactor.redact(plain));
    String withQuery = "https://host/x?page=2";
    assertSame(withQuery, Redactor.redact(withQuery));
  }

  @Test
  void nullStaysNull() {
    assertNull(Redactor.redact(null));
  }
}
