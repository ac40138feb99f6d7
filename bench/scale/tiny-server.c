/*
 * A tiny MCP server for the scale benchmark: stdio, one JSON-RPC message per line, 20 tools. Not node, so a
 * thousand of them fit in memory; it reads only what it must (the id, the method, a call's text) by scanning.
 * Built by bench/scale.ts with cc; it is a benchmark fixture, not part of the package.
 */
#include <stdio.h>
#include <string.h>

#define TOOLS 20

/* The raw JSON value after "key": in line (a number or a string with its quotes), copied into out. */
static int raw_value(const char *line, const char *key, char *out, size_t size) {
  const char *at = strstr(line, key);
  if (!at) return 0;
  at += strlen(key);
  while (*at == ' ' || *at == ':') at++;
  size_t n = 0;
  if (*at == '"') {
    out[n++] = *at++;
    while (*at && *at != '"' && n + 2 < size) {
      if (*at == '\\' && at[1]) out[n++] = *at++;
      out[n++] = *at++;
    }
    out[n++] = '"';
  } else {
    while (*at && *at != ',' && *at != '}' && *at != ' ' && n + 1 < size) out[n++] = *at++;
  }
  out[n] = 0;
  return n > 0;
}

int main(void) {
  static char line[1 << 20];
  char id[256], method[128], text[4096];
  setvbuf(stdout, NULL, _IOFBF, 1 << 16);
  while (fgets(line, sizeof line, stdin)) {
    if (!raw_value(line, "\"method\"", method, sizeof method)) continue;
    if (!raw_value(line, "\"id\"", id, sizeof id)) continue; /* a notification */
    if (strcmp(method, "\"initialize\"") == 0) {
      printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"protocolVersion\":\"2025-11-25\","
             "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"tiny\",\"version\":\"1\"}}}\n", id);
    } else if (strcmp(method, "\"tools/list\"") == 0) {
      printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"tools\":[", id);
      for (int i = 0; i < TOOLS; i++)
        printf("%s{\"name\":\"tool_%d\",\"description\":\"Tool number %d of a tiny server: answers its text.\","
               "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}}",
               i ? "," : "", i, i);
      printf("]}}\n");
    } else if (strcmp(method, "\"tools/call\"") == 0) {
      if (!raw_value(line, "\"text\"", text, sizeof text)) strcpy(text, "\"\"");
      printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":%s}]}}\n", id, text);
    } else if (strcmp(method, "\"ping\"") == 0) {
      printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{}}\n", id);
    } else {
      printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32601,\"message\":\"no such method\"}}\n", id);
    }
    fflush(stdout);
  }
  return 0;
}
