package dev.brace.examples.clients;

import org.springframework.beans.factory.annotation.Autowired;

/** The HTTP interface that {@code @ImportHttpServices} registers, on the {@code RestClient} Spring Boot configures. */
class BootItemsApiTest extends SpringMadeClientContract {
  @Autowired
  BootItemsApi items;

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
    return "BootItemsApi.item";
  }

  @Override
  String instanceName() {
    return "items-boot";
  }

  @Override
  String ioFailureName() {
    return "ResourceAccessException";
  }
}
