package dev.brace.test.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.springframework.test.web.client.match.MockRestRequestMatchers.requestTo;
import static org.springframework.test.web.client.response.MockRestResponseCreators.withStatus;
import static org.springframework.test.web.client.response.MockRestResponseCreators.withSuccess;

import dev.brace.test.BraceTestKit;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.restclient.test.autoconfigure.RestClientTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.client.MockRestServiceServer;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

/**
 * A test slice: only the HTTP client part of the application, the real framework raising a real 503
 * with {@code Retry-After: 1} from Spring's mock server, and the starter's wrapper on the test's time.
 */
@RestClientTest
@AutoConfigureBraceTest
class RestClientSliceTest {
  @Autowired MockRestServiceServer server;
  @Autowired RemoteQuotes quotes;
  @Autowired BraceTestKit brace;

  @TestConfiguration
  static class Clients {
    @Bean
    RemoteQuotes remoteQuotes(RestClient.Builder builder) {
      RestClient client = builder.baseUrl("http://quotes").build();
      return HttpServiceProxyFactory.builderFor(RestClientAdapter.create(client)).build().createClient(RemoteQuotes.class);
    }
  }

  @Test
  void theWrappedHttpInterfaceWaitsTheRetryAfterOfARealResponse() {
    server.expect(requestTo("http://quotes/quotes/ACME"))
        .andRespond(withStatus(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1"));
    server.expect(requestTo("http://quotes/quotes/ACME")).andRespond(withSuccess("ACME 42.00", MediaType.TEXT_PLAIN));

    assertEquals("ACME 42.00", quotes.quote("ACME"));

    brace.call("RemoteQuotes.quote").retried(1).waitedAtLeast(Duration.ofSeconds(1)).thenSucceeded();
    assertEquals(Duration.ofMillis(1051), brace.elapsed(), "the wait was on the test's time");
    server.verify();
  }
}
