package dev.brace.spring.deadline;

import dev.brace.runtime.Deadline;
import java.io.IOException;
import java.util.Optional;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Adds the milliseconds left of the current deadline to every request a {@code RestClient} sends
 * while one is current, so the service it calls can stop in time too. A header the application
 * set itself is left as it is.
 */
public final class DeadlineRequestInterceptor implements ClientHttpRequestInterceptor {
  private final DeadlineHeader header;

  /** @param header the header that carries the deadline */
  public DeadlineRequestInterceptor(DeadlineHeader header) {
    this.header = header;
  }

  @Override
  public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
      throws IOException {
    Optional<Deadline> deadline = Deadline.current();
    if (deadline.isPresent() && !request.getHeaders().containsHeader(header.name())) {
      request.getHeaders().set(header.name(), header.write(deadline.get()));
    }
    return execution.execute(request, body);
  }
}
