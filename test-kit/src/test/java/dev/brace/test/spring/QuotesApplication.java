package dev.brace.test.spring;

import feign.FeignException;
import feign.Request;
import feign.Response;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpServerErrorException;

/**
 * A small application whose clients the starter wraps. Its beans stand in for the real HTTP
 * clients and fail as the frameworks fail: Spring's {@code HttpServerErrorException} and Feign's
 * {@code FeignException}, each a 503 with {@code Retry-After: 1}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class QuotesApplication {

  /** The answers the fake clients give, in order: a failure, or null to answer. */
  public static final class Script {
    private final Deque<Boolean> unavailable = new ArrayDeque<>();

    /** The next {@code times} calls get a 503 with {@code Retry-After: 1}. */
    public void unavailable(int times) {
      for (int i = 0; i < times; i++) {
        unavailable.add(true);
      }
    }

    boolean nextIsUnavailable() {
      return unavailable.poll() != null;
    }
  }

  @Bean
  Script script() {
    return new Script();
  }

  /** Spring's HTTP interface client, faked: the exception is built as RestClient's status handler builds it. */
  @Bean
  Quotes quotes(Script script) {
    return symbol -> {
      if (script.nextIsUnavailable()) {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.RETRY_AFTER, "1");
        throw HttpServerErrorException.create(HttpStatus.SERVICE_UNAVAILABLE, "Service Unavailable", headers,
            "busy".getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
      }
      return symbol + " 42.00";
    };
  }

  /**
   * Feign's client, faked: the exception is the one Feign's error decoder builds from the answer
   * ({@code FeignException.errorStatus}), with the answer's headers. (For an answer with {@code
   * Retry-After} the default decoder goes on to wrap it in a {@code RetryableException} whose
   * {@code retryAfter()} is an instant on the system clock, which a test's clock does not share.)
   */
  @Bean
  Prices prices(Script script) {
    return symbol -> {
      if (script.nextIsUnavailable()) {
        Request request = Request.create(Request.HttpMethod.GET, "http://prices/" + symbol, Map.of(), null,
            StandardCharsets.UTF_8, null);
        Response response = Response.builder().status(503).reason("Service Unavailable").request(request)
            .headers(Map.of("Retry-After", List.of("1"))).build();
        throw FeignException.errorStatus("Prices#price(String)", response);
      }
      return symbol + " 41.50";
    };
  }
}
