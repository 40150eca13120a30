package dev.brace.examples.frameworks.webclient;

import java.net.URI;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * The items service on reactor-netty's HTTP server at a free loopback port: {@code GET
 * /items/{id}} answers {@code item-{id}}, {@code GET /items/{id}/lines} three lines, as text.
 * Scripted answers ({@link #then}) are used once each, in order, by the next requests; {@link
 * #always} answers every request from then on. A hanging answer sends nothing and notes when the
 * client gives the request up (its connection closes), so a test sees the request stopped, not
 * only the call ended.
 */
public final class NettyItemsServer implements AutoCloseable {

  /** What the server does with one request. */
  public enum Answer {
    /** 200 with the item or its lines. */
    ITEM,
    /** 503, no body. */
    UNAVAILABLE,
    /** 500, no body. */
    BROKEN,
    /** Nothing, until the client closes the connection. */
    HANG
  }

  private final ConcurrentLinkedQueue<Answer> script = new ConcurrentLinkedQueue<>();
  private final AtomicReference<Answer> always = new AtomicReference<>(Answer.ITEM);
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger givenUp = new AtomicInteger();
  private final CountDownLatch firstGivenUp = new CountDownLatch(1);
  private final DisposableServer server;

  /** Starts the server on a free loopback port. */
  public NettyItemsServer() {
    server = HttpServer.create()
        .host("127.0.0.1")
        .port(0)
        .route(routes -> routes
            .get("/items/{id}/lines", (request, response) -> answer(request, response, true))
            .get("/items/{id}", (request, response) -> answer(request, response, false)))
        .bindNow();
  }

  /** @return where it listens */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.port());
  }

  /**
   * @param answers the next requests' answers, one each, in order
   * @return this
   */
  public NettyItemsServer then(Answer... answers) {
    script.addAll(java.util.List.of(answers));
    return this;
  }

  /**
   * @param answer every request's answer from now on, once the scripted ones are used
   * @return this
   */
  public NettyItemsServer always(Answer answer) {
    always.set(answer);
    return this;
  }

  /** Forgets the script and the requests so far; every request is answered with the item again. */
  public void reset() {
    script.clear();
    always.set(Answer.ITEM);
    requests.set(0);
  }

  /** @return the requests it has had */
  public int requests() {
    return requests.get();
  }

  /** @return the hanging requests their clients gave up */
  public int givenUp() {
    return givenUp.get();
  }

  /** @return whether a client gave a hanging request up within {@code seconds} */
  public boolean awaitGivenUp(long seconds) throws InterruptedException {
    return firstGivenUp.await(seconds, TimeUnit.SECONDS);
  }

  private Publisher<Void> answer(HttpServerRequest request, HttpServerResponse response, boolean lines) {
    requests.incrementAndGet();
    Answer answer = script.poll();
    if (answer == null) {
      answer = always.get();
    }
    String id = request.param("id");
    switch (answer) {
      case UNAVAILABLE:
        return empty(response, 503);
      case BROKEN:
        return empty(response, 500);
      case HANG:
        return response.header("Content-Type", "text/plain").sendString(Mono.<String>never().doOnCancel(() -> {
          givenUp.incrementAndGet();
          firstGivenUp.countDown();
        }));
      default:
        String body = lines ? id + "-a\n" + id + "-b\n" + id + "-c\n" : "item-" + id;
        return response.header("Content-Type", "text/plain").sendString(Mono.just(body));
    }
  }

  /**
   * A status with a body of length 0, said so: without the length the connection would have to
   * close to end the body, and a client's next request on it, pooled, could meet the close.
   */
  private static Publisher<Void> empty(HttpServerResponse response, int status) {
    return response.status(status).header("Content-Length", "0").send();
  }

  /** Stops the server; its port is free again. */
  @Override
  public void close() {
    server.disposeNow();
  }
}
