package dev.brace.examples.clients;

import org.springframework.beans.factory.annotation.Autowired;

/** The Spring Cloud OpenFeign client that {@code @EnableFeignClients} registers. */
class CloudItemsApiTest extends SpringMadeClientContract {
  @Autowired
  CloudItemsApi items;

  @Override
  Object bean() {
    return items;
  }

  @Override
  String item(String id) {
    return items.item(id);
  }

  @Override
  String callName() {
    return "CloudItemsApi.item";
  }

  @Override
  String instanceName() {
    return "items-cloud";
  }

  @Override
  String ioFailureName() {
    return "RetryableException";
  }
}
