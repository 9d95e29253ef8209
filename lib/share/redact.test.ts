import { describe, expect, it } from "vitest";
import { redactEndpoints } from "./redact";

describe("redactEndpoints", () => {
  it("hides every URL in an error and keeps the reason", () => {
    expect(
      redactEndpoints(
        "ROLLOUT: HTTP environment POST /episodes: cannot reach http://10.0.0.5:8765 (ECONNREFUSED); chat completions at https://gpu-1.internal/v1/chat/completions: 500",
      ),
    ).toBe(
      "ROLLOUT: HTTP environment POST /episodes: cannot reach [endpoint] (ECONNREFUSED); chat completions at [endpoint]: 500",
    );
  });

  it("leaves text without URLs alone", () => {
    expect(redactEndpoints("TRAIN: injected trainer failure")).toBe(
      "TRAIN: injected trainer failure",
    );
  });
});
