package dev.brace.spring.deadline;

import dev.brace.runtime.Deadline;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Runs each incoming request that carries the deadline header under that deadline, so every Brace
 * call the request makes (and every request it sends on) is bounded by what its caller has left.
 * A request without the header, or with a malformed one, runs as it would without this filter.
 *
 * <p>The deadline lasts while the request is handled on its thread; work the application hands to
 * threads of its own carries it only through Brace calls started before it was handed over.
 */
public final class DeadlineServletFilter extends OncePerRequestFilter {
  private final DeadlineHeader header;

  /** @param header the header that carries the deadline */
  public DeadlineServletFilter(DeadlineHeader header) {
    this.header = header;
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    Optional<Deadline> deadline = header.read(request.getHeader(header.name()));
    if (deadline.isEmpty()) {
      chain.doFilter(request, response);
      return;
    }
    try (Deadline.Scope scope = deadline.get().open()) {
      chain.doFilter(request, response);
    }
  }
}
