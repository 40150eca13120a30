package dev.brace.examples;

import dev.brace.CircuitBreaker;
import dev.brace.NotIdempotent;
import dev.brace.Retry;
import java.io.IOException;
import java.net.ConnectException;

/**
 * A client of a payment service, for the guide's section on calls that must not be repeated: a
 * charge sent twice is charged twice, so it is retried only when the connection was never made.
 */
@CircuitBreaker(name = "payments-api")
public interface PaymentsClient {

  /**
   * @param orderId the order to charge
   * @param cents the amount
   * @return the payment's id
   * @throws IOException when the service cannot be reached or fails
   */
  @NotIdempotent                                                          // asked twice, the service charges twice
  @Retry(maxAttempts = 3, delay = "50ms", on = ConnectException.class)   // never connected: never sent
  String charge(String orderId, long cents) throws IOException;
}
