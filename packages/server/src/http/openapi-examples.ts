/**
 * Request and answer examples of the OpenAPI document, recorded from real exchanges with a started
 * server by `npm run openapi:examples` (do not edit by hand); `openapi-examples.test.ts` replays them.
 */

/** One recorded exchange of an operation. */
export interface RecordedExchange {
  readonly operationId: string;
  readonly method: string;
  /** The concrete path requested. */
  readonly path: string;
  /** The request body sent (absent for none). */
  readonly request?: unknown;
  readonly status: number;
  /** The answer: parsed JSON, or the text of another media type. */
  readonly response: unknown;
}

/** The exchanges of the tour, in order. */
export const RECORDED_EXCHANGES: readonly RecordedExchange[] = [
  {
    operationId: "getHealth",
    method: "GET",
    path: "/v1/health",
    status: 200,
    response: {
      status: "ok",
    },
  },
  {
    operationId: "getReadiness",
    method: "GET",
    path: "/v1/ready",
    status: 200,
    response: {
      status: "ready",
      storage: "available",
    },
  },
  {
    operationId: "listKeys",
    method: "GET",
    path: "/v1/keys",
    status: 200,
    response: {
      data: [
        {
          key_id: "key_01m8thv51tbvvpa9d01rb2sgw9",
          name: "bootstrap",
          scopes: [
            "configuration:read",
            "configuration:write",
            "runtime:read",
            "runtime:write",
            "executors:connect",
            "tools:execute",
            "metrics:read",
            "admin",
          ],
          agents: "*",
          bindings: "*",
          connections: "*",
          created_at: "2026-12-02T04:57:40.666Z",
          revoked_at: null,
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "createKey",
    method: "POST",
    path: "/v1/keys",
    request: {
      name: "task service executor",
      scopes: ["executors:connect", "tools:execute"],
    },
    status: 201,
    response: {
      key_id: "key_01m8thv5sand1pvn1xmsk3q3fn",
      name: "task service executor",
      scopes: ["executors:connect", "tools:execute"],
      agents: "*",
      bindings: "*",
      connections: "*",
      created_at: "2026-12-02T04:57:41.418Z",
      key: "th_Vx3STV_4Eh2PjVG9dn9x7e3Pt0kjFcGtjTSuF5LRlqU",
    },
  },
  {
    operationId: "listKeys",
    method: "GET",
    path: "/v1/keys?limit=2",
    status: 200,
    response: {
      data: [
        {
          key_id: "key_01m8thv51tbvvpa9d01rb2sgw9",
          name: "bootstrap",
          scopes: [
            "configuration:read",
            "configuration:write",
            "runtime:read",
            "runtime:write",
            "executors:connect",
            "tools:execute",
            "metrics:read",
            "admin",
          ],
          agents: "*",
          bindings: "*",
          connections: "*",
          created_at: "2026-12-02T04:57:40.666Z",
          revoked_at: null,
        },
        {
          key_id: "key_01m8thv5sand1pvn1xmsk3q3fn",
          name: "task service executor",
          scopes: ["executors:connect", "tools:execute"],
          agents: "*",
          bindings: "*",
          connections: "*",
          created_at: "2026-12-02T04:57:41.418Z",
          revoked_at: null,
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "createBinding",
    method: "POST",
    path: "/v1/executor-bindings",
    request: {
      binding_id: "task-service",
      name: "Task service",
    },
    status: 201,
    response: {
      binding_id: "task-service",
      name: "Task service",
      created_at: "2026-12-02T04:57:41.454Z",
    },
  },
  {
    operationId: "createBinding",
    method: "POST",
    path: "/v1/executor-bindings",
    request: {
      binding_id: "task-service",
      name: "Task service",
    },
    status: 409,
    response: {
      error: {
        code: "conflict",
        message: 'executor binding "task-service" already exists',
        pointer: "/binding_id",
        details: {
          binding_id: "task-service",
        },
        request_id: "req_01m8thv5tq8y01yzehfzarh6r7",
      },
    },
  },
  {
    operationId: "listBindings",
    method: "GET",
    path: "/v1/executor-bindings",
    status: 200,
    response: {
      data: [
        {
          binding_id: "task-service",
          name: "Task service",
          created_at: "2026-12-02T04:57:41.454Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getBinding",
    method: "GET",
    path: "/v1/executor-bindings/task-service",
    status: 200,
    response: {
      binding_id: "task-service",
      name: "Task service",
      created_at: "2026-12-02T04:57:41.454Z",
    },
  },
  {
    operationId: "createToolset",
    method: "POST",
    path: "/v1/toolsets",
    request: {
      name: "task service",
      tools: [
        {
          name: "tasks.create",
          description: "Creates a task for the current user.",
          binding_id: "task-service",
          effect: "write",
          input_schema: {
            type: "object",
            properties: {
              title: {
                type: "string",
              },
            },
            required: ["title"],
          },
          timeout_ms: 60000,
        },
      ],
    },
    status: 201,
    response: {
      toolset_id: "tls_01m8thv600m4d8mw60fzb7rtny",
      version: 1,
      name: "task service",
      tools: [
        {
          name: "tasks.create",
          description: "Creates a task for the current user.",
          binding_id: "task-service",
          input_schema: {
            type: "object",
            properties: {
              title: {
                type: "string",
              },
            },
            required: ["title"],
          },
          output_schema: {},
          max_result_context_bytes: 16384,
          effect: "write",
          timeout_ms: 60000,
        },
      ],
      created_at: "2026-12-02T04:57:41.632Z",
    },
  },
  {
    operationId: "publishToolsetVersion",
    method: "POST",
    path: "/v1/toolsets/tls_01m8thv600m4d8mw60fzb7rtny/versions",
    request: {
      tools: [
        {
          name: "tasks.create",
          description: "Creates a task for the current user.",
          binding_id: "task-service",
          effect: "write",
          input_schema: {
            type: "object",
            properties: {
              title: {
                type: "string",
              },
            },
            required: ["title"],
          },
          timeout_ms: 60000,
        },
        {
          name: "tasks.delete",
          description: "Deletes a task (compensates tasks.create).",
          binding_id: "task-service",
          effect: "write",
          input_schema: {
            type: "object",
            properties: {
              task_id: {
                type: "string",
              },
            },
            required: ["task_id"],
          },
        },
      ],
    },
    status: 201,
    response: {
      toolset_id: "tls_01m8thv600m4d8mw60fzb7rtny",
      version: 2,
      tools: [
        {
          name: "tasks.create",
          description: "Creates a task for the current user.",
          binding_id: "task-service",
          input_schema: {
            type: "object",
            properties: {
              title: {
                type: "string",
              },
            },
            required: ["title"],
          },
          output_schema: {},
          max_result_context_bytes: 16384,
          effect: "write",
          timeout_ms: 60000,
        },
        {
          name: "tasks.delete",
          description: "Deletes a task (compensates tasks.create).",
          binding_id: "task-service",
          input_schema: {
            type: "object",
            properties: {
              task_id: {
                type: "string",
              },
            },
            required: ["task_id"],
          },
          output_schema: {},
          max_result_context_bytes: 16384,
          effect: "write",
          timeout_ms: 300000,
        },
      ],
      created_at: "2026-12-02T04:57:41.651Z",
    },
  },
  {
    operationId: "listToolsets",
    method: "GET",
    path: "/v1/toolsets",
    status: 200,
    response: {
      data: [
        {
          toolset_id: "tls_01m8thv600m4d8mw60fzb7rtny",
          name: "task service",
          latest_version: 2,
          created_at: "2026-12-02T04:57:41.632Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getToolset",
    method: "GET",
    path: "/v1/toolsets/tls_01m8thv600m4d8mw60fzb7rtny",
    status: 200,
    response: {
      toolset_id: "tls_01m8thv600m4d8mw60fzb7rtny",
      name: "task service",
      latest_version: 2,
      created_at: "2026-12-02T04:57:41.632Z",
    },
  },
  {
    operationId: "listToolsetVersions",
    method: "GET",
    path: "/v1/toolsets/tls_01m8thv600m4d8mw60fzb7rtny/versions",
    status: 200,
    response: {
      data: [
        {
          toolset_id: "tls_01m8thv600m4d8mw60fzb7rtny",
          version: 1,
          tools: [
            {
              name: "tasks.create",
              description: "Creates a task for the current user.",
              binding_id: "task-service",
              input_schema: {
                type: "object",
                properties: {
                  title: {
                    type: "string",
                  },
                },
                required: ["title"],
              },
              output_schema: {},
              max_result_context_bytes: 16384,
              effect: "write",
              timeout_ms: 60000,
            },
          ],
          created_at: "2026-12-02T04:57:41.632Z",
        },
        {
          toolset_id: "tls_01m8thv600m4d8mw60fzb7rtny",
          version: 2,
          tools: [
            {
              name: "tasks.create",
              description: "Creates a task for the current user.",
              binding_id: "task-service",
              input_schema: {
                type: "object",
                properties: {
                  title: {
                    type: "string",
                  },
                },
                required: ["title"],
              },
              output_schema: {},
              max_result_context_bytes: 16384,
              effect: "write",
              timeout_ms: 60000,
            },
            {
              name: "tasks.delete",
              description: "Deletes a task (compensates tasks.create).",
              binding_id: "task-service",
              input_schema: {
                type: "object",
                properties: {
                  task_id: {
                    type: "string",
                  },
                },
                required: ["task_id"],
              },
              output_schema: {},
              max_result_context_bytes: 16384,
              effect: "write",
              timeout_ms: 300000,
            },
          ],
          created_at: "2026-12-02T04:57:41.651Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getToolsetVersion",
    method: "GET",
    path: "/v1/toolsets/tls_01m8thv600m4d8mw60fzb7rtny/versions/2",
    status: 200,
    response: {
      toolset_id: "tls_01m8thv600m4d8mw60fzb7rtny",
      version: 2,
      tools: [
        {
          name: "tasks.create",
          description: "Creates a task for the current user.",
          binding_id: "task-service",
          input_schema: {
            type: "object",
            properties: {
              title: {
                type: "string",
              },
            },
            required: ["title"],
          },
          output_schema: {},
          max_result_context_bytes: 16384,
          effect: "write",
          timeout_ms: 60000,
        },
        {
          name: "tasks.delete",
          description: "Deletes a task (compensates tasks.create).",
          binding_id: "task-service",
          input_schema: {
            type: "object",
            properties: {
              task_id: {
                type: "string",
              },
            },
            required: ["task_id"],
          },
          output_schema: {},
          max_result_context_bytes: 16384,
          effect: "write",
          timeout_ms: 300000,
        },
      ],
      created_at: "2026-12-02T04:57:41.651Z",
    },
  },
  {
    operationId: "createAgent",
    method: "POST",
    path: "/v1/agents",
    request: {
      name: "task assistant",
    },
    status: 201,
    response: {
      agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
      name: "task assistant",
      created_at: "2026-12-02T04:57:41.693Z",
    },
  },
  {
    operationId: "publishAgentVersion",
    method: "POST",
    path: "/v1/agents/agt_01m8thv61x06kz4t29kwgpfbdq/versions",
    request: {
      toolset_id: "tls_01m8thv600m4d8mw60fzb7rtny",
      toolset_version: 2,
      model: {
        provider: "scripted",
        script: [
          {
            tool_calls: [
              {
                name: "tasks.create",
                arguments: {
                  title: "Buy milk",
                },
              },
            ],
          },
          {
            message: "Done.",
          },
        ],
      },
    },
    status: 201,
    response: {
      agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
      agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
      toolset_id: "tls_01m8thv600m4d8mw60fzb7rtny",
      toolset_version: 2,
      model: {
        provider: "scripted",
        script: [
          {
            tool_calls: [
              {
                name: "tasks.create",
                arguments: {
                  title: "Buy milk",
                },
              },
            ],
          },
          {
            message: "Done.",
          },
        ],
      },
      instructions: "",
      max_context_tokens: 200000,
      max_turns: null,
      max_tool_calls: null,
      run_timeout_ms: null,
      created_at: "2026-12-02T04:57:41.702Z",
    },
  },
  {
    operationId: "listAgents",
    method: "GET",
    path: "/v1/agents",
    status: 200,
    response: {
      data: [
        {
          agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
          name: "task assistant",
          created_at: "2026-12-02T04:57:41.693Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getAgent",
    method: "GET",
    path: "/v1/agents/agt_01m8thv61x06kz4t29kwgpfbdq",
    status: 200,
    response: {
      agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
      name: "task assistant",
      created_at: "2026-12-02T04:57:41.693Z",
    },
  },
  {
    operationId: "listAgentVersions",
    method: "GET",
    path: "/v1/agents/agt_01m8thv61x06kz4t29kwgpfbdq/versions",
    status: 200,
    response: {
      data: [
        {
          agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
          agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
          toolset_id: "tls_01m8thv600m4d8mw60fzb7rtny",
          toolset_version: 2,
          model: {
            provider: "scripted",
            script: [
              {
                tool_calls: [
                  {
                    name: "tasks.create",
                    arguments: {
                      title: "Buy milk",
                    },
                  },
                ],
              },
              {
                message: "Done.",
              },
            ],
          },
          instructions: "",
          max_context_tokens: 200000,
          max_turns: null,
          max_tool_calls: null,
          run_timeout_ms: null,
          created_at: "2026-12-02T04:57:41.702Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getAgentVersion",
    method: "GET",
    path: "/v1/agents/agt_01m8thv61x06kz4t29kwgpfbdq/versions/agv_01m8thv626p8hz91xpf5rssa7m",
    status: 200,
    response: {
      agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
      agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
      toolset_id: "tls_01m8thv600m4d8mw60fzb7rtny",
      toolset_version: 2,
      model: {
        provider: "scripted",
        script: [
          {
            tool_calls: [
              {
                name: "tasks.create",
                arguments: {
                  title: "Buy milk",
                },
              },
            ],
          },
          {
            message: "Done.",
          },
        ],
      },
      instructions: "",
      max_context_tokens: 200000,
      max_turns: null,
      max_tool_calls: null,
      run_timeout_ms: null,
      created_at: "2026-12-02T04:57:41.702Z",
    },
  },
  {
    operationId: "createSession",
    method: "POST",
    path: "/v1/sessions",
    request: {
      agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
      subject: "user-42",
    },
    status: 201,
    response: {
      session_id: "ses_01m8thv63fx52eapya8jppnasg",
      agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
      agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
      subject: "user-42",
      created_at: "2026-12-02T04:57:41.743Z",
    },
  },
  {
    operationId: "listSessions",
    method: "GET",
    path: "/v1/sessions",
    status: 200,
    response: {
      data: [
        {
          session_id: "ses_01m8thv63fx52eapya8jppnasg",
          agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
          agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
          subject: "user-42",
          created_at: "2026-12-02T04:57:41.743Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getSession",
    method: "GET",
    path: "/v1/sessions/ses_01m8thv63fx52eapya8jppnasg",
    status: 200,
    response: {
      session_id: "ses_01m8thv63fx52eapya8jppnasg",
      agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
      agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
      subject: "user-42",
      created_at: "2026-12-02T04:57:41.743Z",
    },
  },
  {
    operationId: "dryRunToolCall",
    method: "POST",
    path: "/v1/tools/dry-run",
    request: {
      agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
      tool_name: "tasks.create",
      arguments: {
        title: "Buy milk",
      },
      mock_receipts: [
        {
          receipt_id: "r-1",
          kind: "completed",
          result: {
            task_id: "task-1",
            title: "Buy milk",
          },
        },
      ],
    },
    status: 200,
    response: {
      tool: {
        name: "tasks.create",
        binding_id: "task-service",
        effect: "write",
        max_result_context_bytes: 16384,
      },
      arguments: {
        valid: true,
        errors: [],
      },
      receipts: [
        {
          receipt_id: "r-1",
          kind: "completed",
          valid: true,
          errors: [],
        },
      ],
      context_preview: {
        max_result_context_bytes: 16384,
        original_bytes: 39,
        retained_bytes: 39,
        truncated: false,
        result: {
          task_id: "task-1",
          title: "Buy milk",
        },
      },
      execution_verified: false,
    },
  },
  {
    operationId: "connectExecutor",
    method: "POST",
    path: "/v1/executors/connect",
    request: {
      executor_id: "task-service-1",
      binding_ids: ["task-service"],
      tool_names: ["tasks.create", "tasks.delete"],
    },
    status: 200,
    response: {
      executor_id: "task-service-1",
      connection_id: "conn_01m8thv6513fgxkaz44km79c6c",
      epoch: 1,
      heartbeat_interval_ms: 5000,
      lease_ttl_ms: 15000,
      binding_ids: ["task-service"],
      batch: {
        claim_max: 32,
        receipts_max: 100,
      },
    },
  },
  {
    operationId: "heartbeatExecutor",
    method: "POST",
    path: "/v1/executors/task-service-1/heartbeat",
    request: {
      connection_id: "conn_01m8thv6513fgxkaz44km79c6c",
    },
    status: 200,
    response: {
      executor_id: "task-service-1",
      connection_id: "conn_01m8thv6513fgxkaz44km79c6c",
      lease_expires_at: "2026-12-02T04:57:56.807Z",
      heartbeat_interval_ms: 5000,
      cancellations: [],
    },
  },
  {
    operationId: "createRun",
    method: "POST",
    path: "/v1/sessions/ses_01m8thv63fx52eapya8jppnasg/runs",
    request: {
      input: "Add 'Buy milk' to my tasks",
    },
    status: 201,
    response: {
      run_id: "run_01m8thv65rmzs1basjzspf5dbg",
      session_id: "ses_01m8thv63fx52eapya8jppnasg",
      agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
      agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
      status: "waiting_for_tools",
      created_at: "2026-12-02T04:57:41.816Z",
      updated_at: "2026-12-02T04:57:41.816Z",
    },
  },
  {
    operationId: "listPendingCalls",
    method: "GET",
    path: "/v1/executors/task-service-1/pending?connection_id=conn_01m8thv6513fgxkaz44km79c6c&wait_ms=5000",
    status: 200,
    response: {
      data: [
        {
          run_id: "run_01m8thv65rmzs1basjzspf5dbg",
          call_id: "call_01m8thv65rmzs1basjzspf5dbj",
          tool_name: "tasks.create",
          binding_id: "task-service",
          created_at: "2026-12-02T04:57:41.816Z",
        },
      ],
      cancellations: [],
      next_cursor: null,
    },
  },
  {
    operationId: "claimToolCall",
    method: "POST",
    path: "/v1/runs/run_01m8thv65rmzs1basjzspf5dbg/tool-calls/call_01m8thv65rmzs1basjzspf5dbj/claim",
    request: {
      executor_id: "task-service-1",
      connection_id: "conn_01m8thv6513fgxkaz44km79c6c",
    },
    status: 200,
    response: {
      claim_id: "clm_01m8thv67m3hy5sy627w5wx52v",
      grant: "DytEoJsfFA3_ZA3cKMUHuOeNd0j_i5KU2exT76aUsrg",
      replayed: false,
      call: {
        run_id: "run_01m8thv65rmzs1basjzspf5dbg",
        call_id: "call_01m8thv65rmzs1basjzspf5dbj",
        tool_name: "tasks.create",
        binding_id: "task-service",
        effect: "write",
        arguments: {
          title: "Buy milk",
        },
        arguments_digest: "sha256:6330399f2342cfc9311b85fb26dcac5b706b3080b49e3aadedde2f3a864efdc9",
        subject: "user-42",
        agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
        agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
        toolset_id: "tls_01m8thv600m4d8mw60fzb7rtny",
        toolset_version: 2,
        deadline: "2026-12-02T04:58:41.816Z",
        accept_deadline: "2026-12-02T04:58:11.876Z",
      },
    },
  },
  {
    operationId: "sendReceipt",
    method: "POST",
    path: "/v1/runs/run_01m8thv65rmzs1basjzspf5dbg/tool-calls/call_01m8thv65rmzs1basjzspf5dbj/receipts",
    request: {
      receipt_id: "r-1",
      executor_id: "task-service-1",
      claim_id: "clm_01m8thv67m3hy5sy627w5wx52v",
      grant: "DytEoJsfFA3_ZA3cKMUHuOeNd0j_i5KU2exT76aUsrg",
      kind: "accepted",
    },
    status: 200,
    response: {
      receipt_id: "r-1",
      kind: "accepted",
      replayed: false,
      confirmed: true,
      applied: true,
      call_status: "accepted",
      run_status: "waiting_for_tools",
    },
  },
  {
    operationId: "sendReceipt",
    method: "POST",
    path: "/v1/runs/run_01m8thv65rmzs1basjzspf5dbg/tool-calls/call_01m8thv65rmzs1basjzspf5dbj/receipts",
    request: {
      receipt_id: "r-2",
      executor_id: "task-service-1",
      claim_id: "clm_01m8thv67m3hy5sy627w5wx52v",
      grant: "DytEoJsfFA3_ZA3cKMUHuOeNd0j_i5KU2exT76aUsrg",
      kind: "progress",
      progress: {
        percent: 50,
      },
    },
    status: 200,
    response: {
      receipt_id: "r-2",
      kind: "progress",
      replayed: false,
      applied: true,
      call_status: "accepted",
      run_status: "waiting_for_tools",
    },
  },
  {
    operationId: "reportExecutorCalls",
    method: "POST",
    path: "/v1/executors/task-service-1/calls/report",
    request: {
      connection_id: "conn_01m8thv6513fgxkaz44km79c6c",
      calls: [
        {
          call_id: "call_01m8thv65rmzs1basjzspf5dbj",
          claim_id: "clm_01m8thv67m3hy5sy627w5wx52v",
          state: "pending_delivery",
          receipt_ids: ["r-1", "r-2", "r-3"],
        },
      ],
    },
    status: 200,
    response: {
      executor_id: "task-service-1",
      calls: [
        {
          call_id: "call_01m8thv65rmzs1basjzspf5dbj",
          run_id: "run_01m8thv65rmzs1basjzspf5dbg",
          status: "accepted",
          run_status: "waiting_for_tools",
          receipt_ids: ["r-1", "r-2"],
          action: "redeliver",
          reason: "missing_receipts",
        },
      ],
    },
  },
  {
    operationId: "sendReceipt",
    method: "POST",
    path: "/v1/runs/run_01m8thv65rmzs1basjzspf5dbg/tool-calls/call_01m8thv65rmzs1basjzspf5dbj/receipts",
    request: {
      receipt_id: "r-3",
      executor_id: "task-service-1",
      claim_id: "clm_01m8thv67m3hy5sy627w5wx52v",
      grant: "DytEoJsfFA3_ZA3cKMUHuOeNd0j_i5KU2exT76aUsrg",
      kind: "completed",
      result: {
        task_id: "task-1",
        title: "Buy milk",
      },
    },
    status: 200,
    response: {
      receipt_id: "r-3",
      kind: "completed",
      replayed: false,
      applied: true,
      call_status: "completed",
      run_status: "completed",
    },
  },
  {
    operationId: "sendReceipt",
    method: "POST",
    path: "/v1/runs/run_01m8thv65rmzs1basjzspf5dbg/tool-calls/call_01m8thv65rmzs1basjzspf5dbj/receipts",
    request: {
      receipt_id: "r-3",
      executor_id: "task-service-1",
      claim_id: "clm_01m8thv67m3hy5sy627w5wx52v",
      grant: "DytEoJsfFA3_ZA3cKMUHuOeNd0j_i5KU2exT76aUsrg",
      kind: "completed",
      result: {
        task_id: "task-1",
        title: "Buy milk",
      },
    },
    status: 200,
    response: {
      receipt_id: "r-3",
      kind: "completed",
      replayed: true,
      applied: true,
      call_status: "completed",
      run_status: "completed",
    },
  },
  {
    operationId: "sendReceipt",
    method: "POST",
    path: "/v1/runs/run_01m8thv65rmzs1basjzspf5dbg/tool-calls/call_01m8thv65rmzs1basjzspf5dbj/receipts",
    request: {
      receipt_id: "r-3",
      executor_id: "task-service-1",
      claim_id: "clm_01m8thv67m3hy5sy627w5wx52v",
      grant: "DytEoJsfFA3_ZA3cKMUHuOeNd0j_i5KU2exT76aUsrg",
      kind: "completed",
      result: {
        task_id: "task-2",
      },
    },
    status: 409,
    response: {
      error: {
        code: "receipt_conflict",
        message: 'receipt "r-3" was sent before with another body',
        details: {
          receipt_id: "r-3",
        },
        request_id: "req_01m8thv6b9f35mt7kv4k2rcn7e",
      },
    },
  },
  {
    operationId: "getRun",
    method: "GET",
    path: "/v1/runs/run_01m8thv65rmzs1basjzspf5dbg",
    status: 200,
    response: {
      run_id: "run_01m8thv65rmzs1basjzspf5dbg",
      session_id: "ses_01m8thv63fx52eapya8jppnasg",
      agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
      agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
      status: "completed",
      created_at: "2026-12-02T04:57:41.816Z",
      updated_at: "2026-12-02T04:57:41.978Z",
      output: "Done.",
      ended_at: "2026-12-02T04:57:41.978Z",
    },
  },
  {
    operationId: "listSessionRuns",
    method: "GET",
    path: "/v1/sessions/ses_01m8thv63fx52eapya8jppnasg/runs",
    status: 200,
    response: {
      data: [
        {
          run_id: "run_01m8thv65rmzs1basjzspf5dbg",
          session_id: "ses_01m8thv63fx52eapya8jppnasg",
          agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
          agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
          status: "completed",
          created_at: "2026-12-02T04:57:41.816Z",
          updated_at: "2026-12-02T04:57:41.978Z",
          output: "Done.",
          ended_at: "2026-12-02T04:57:41.978Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "listRuns",
    method: "GET",
    path: "/v1/runs",
    status: 200,
    response: {
      data: [
        {
          run_id: "run_01m8thv65rmzs1basjzspf5dbg",
          session_id: "ses_01m8thv63fx52eapya8jppnasg",
          agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
          agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
          status: "completed",
          created_at: "2026-12-02T04:57:41.816Z",
          updated_at: "2026-12-02T04:57:41.978Z",
          output: "Done.",
          ended_at: "2026-12-02T04:57:41.978Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "listToolCalls",
    method: "GET",
    path: "/v1/runs/run_01m8thv65rmzs1basjzspf5dbg/tool-calls",
    status: 200,
    response: {
      data: [
        {
          call_id: "call_01m8thv65rmzs1basjzspf5dbj",
          run_id: "run_01m8thv65rmzs1basjzspf5dbg",
          tool_name: "tasks.create",
          effect: "write",
          status: "completed",
          arguments_digest: "sha256:6330399f2342cfc9311b85fb26dcac5b706b3080b49e3aadedde2f3a864efdc9",
          deadline: "2026-12-02T04:58:41.816Z",
          created_at: "2026-12-02T04:57:41.816Z",
          updated_at: "2026-12-02T04:57:41.959Z",
          turn: 0,
          binding_id: "task-service",
          executor_id: "task-service-1",
          claim_id: "clm_01m8thv67m3hy5sy627w5wx52v",
          claimed_at: "2026-12-02T04:57:41.876Z",
          accepted_at: "2026-12-02T04:57:41.905Z",
          settled_at: "2026-12-02T04:57:41.959Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "listCallReceipts",
    method: "GET",
    path: "/v1/runs/run_01m8thv65rmzs1basjzspf5dbg/tool-calls/call_01m8thv65rmzs1basjzspf5dbj/receipts",
    status: 200,
    response: {
      call_id: "call_01m8thv65rmzs1basjzspf5dbj",
      receipts: [
        {
          receipt_id: "r-1",
          seq: 1,
          kind: "accepted",
          executor_id: "task-service-1",
          claim_id: "clm_01m8thv67m3hy5sy627w5wx52v",
          applied: true,
          body_bytes: 167,
          created_at: "2026-12-02T04:57:41.905Z",
        },
        {
          receipt_id: "r-2",
          seq: 2,
          kind: "progress",
          executor_id: "task-service-1",
          claim_id: "clm_01m8thv67m3hy5sy627w5wx52v",
          applied: true,
          body_bytes: 193,
          created_at: "2026-12-02T04:57:41.920Z",
        },
        {
          receipt_id: "r-3",
          seq: 3,
          kind: "completed",
          executor_id: "task-service-1",
          claim_id: "clm_01m8thv67m3hy5sy627w5wx52v",
          applied: true,
          body_bytes: 217,
          created_at: "2026-12-02T04:57:41.959Z",
        },
      ],
    },
  },
  {
    operationId: "getRunHistory",
    method: "GET",
    path: "/v1/runs/run_01m8thv65rmzs1basjzspf5dbg/history",
    status: 200,
    response: {
      data: [
        {
          type: "input",
          input: "Add 'Buy milk' to my tasks",
        },
        {
          type: "tool_calls",
          calls: [
            {
              call_id: "call_01m8thv65rmzs1basjzspf5dbj",
              name: "tasks.create",
              arguments: {
                title: "Buy milk",
              },
            },
          ],
        },
        {
          type: "tool_result",
          call_id: "call_01m8thv65rmzs1basjzspf5dbj",
          receipt_id: "r-3",
          context_preview: {
            max_result_context_bytes: 16384,
            original_bytes: 39,
            retained_bytes: 39,
            truncated: false,
            result: {
              task_id: "task-1",
              title: "Buy milk",
            },
          },
        },
        {
          type: "message",
          text: "Done.",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "listModelRequests",
    method: "GET",
    path: "/v1/runs/run_01m8thv65rmzs1basjzspf5dbg/model-requests",
    status: 200,
    response: {
      data: [
        {
          request_id: "mrq_01m8thv65rmzs1basjzspf5dbh",
          turn: 0,
          purpose: "turn",
          provider: "scripted",
          model: "scripted",
          request_bytes: 290,
          estimated_input_tokens: 99,
          actual_input_tokens: null,
          output_tokens: null,
          compacted: false,
          latency_ms: 0,
          created_at: "2026-12-02T04:57:41.816Z",
        },
        {
          request_id: "mrq_01m8thv6at8a3jpv06x32p4sfp",
          turn: 1,
          purpose: "turn",
          provider: "scripted",
          model: "scripted",
          request_bytes: 361,
          estimated_input_tokens: 129,
          actual_input_tokens: null,
          output_tokens: null,
          compacted: false,
          latency_ms: 0,
          created_at: "2026-12-02T04:57:41.978Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "diagnoseBinding",
    method: "GET",
    path: "/v1/agents/agt_01m8thv61x06kz4t29kwgpfbdq/executor-bindings/task-service/diagnostics",
    status: 200,
    response: {
      agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
      binding_id: "task-service",
      referenced: true,
      referenced_by: [
        {
          agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
          toolset_id: "tls_01m8thv600m4d8mw60fzb7rtny",
          toolset_version: 2,
        },
      ],
      tools: [
        {
          name: "tasks.create",
          agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
          effect: "write",
          max_result_context_bytes: 16384,
        },
        {
          name: "tasks.delete",
          agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
          effect: "write",
          max_result_context_bytes: 16384,
        },
      ],
      executors: {
        online: [
          {
            executor_id: "task-service-1",
            connection_id: "conn_01m8thv6513fgxkaz44km79c6c",
            connected_at: "2026-12-02T04:57:41.793Z",
            last_heartbeat_at: "2026-12-02T04:57:41.807Z",
            lease_expires_at: "2026-12-02T04:57:56.807Z",
            tool_names: ["tasks.create", "tasks.delete"],
          },
        ],
        last_heartbeat_at: "2026-12-02T04:57:41.807Z",
      },
      calls: {
        pending: 0,
        claimed: 0,
        accepted: 0,
        reconciliation_required: 0,
        oldest_pending_age_ms: null,
      },
      last_verified_execution: {
        run_id: "run_01m8thv65rmzs1basjzspf5dbg",
        call_id: "call_01m8thv65rmzs1basjzspf5dbj",
        tool_name: "tasks.create",
        executor_id: "task-service-1",
        completed_at: "2026-12-02T04:57:41.959Z",
      },
      checks: [
        {
          name: "binding_exists",
          ok: true,
          message: 'executor binding "task-service" is registered',
        },
        {
          name: "agent_has_versions",
          ok: true,
          message: 'agent "agt_01m8thv61x06kz4t29kwgpfbdq" has published versions',
        },
        {
          name: "binding_referenced",
          ok: true,
          message:
            '1 version(s) of agent "agt_01m8thv61x06kz4t29kwgpfbdq" pin tools on binding "task-service": tasks.create, tasks.delete',
        },
        {
          name: "executor_online",
          ok: true,
          message: '1 executor(s) online for binding "task-service": task-service-1',
        },
        {
          name: "tools_served",
          ok: true,
          message:
            'every tool on binding "task-service" has an online executor: tasks.create (task-service-1), tasks.delete (task-service-1)',
        },
        {
          name: "no_stale_pending",
          ok: true,
          message: 'no call of agent "agt_01m8thv61x06kz4t29kwgpfbdq" is pending on binding "task-service"',
        },
        {
          name: "no_reconciliation_backlog",
          ok: true,
          message:
            'no call of agent "agt_01m8thv61x06kz4t29kwgpfbdq" on binding "task-service" waits for reconciliation',
        },
        {
          name: "execution_verified",
          ok: true,
          message:
            'executor "task-service-1" completed call "call_01m8thv65rmzs1basjzspf5dbj" (tasks.create) on binding "task-service" at 2026-12-02T04:57:41.959Z',
        },
      ],
    },
  },
  {
    operationId: "listExecutors",
    method: "GET",
    path: "/v1/executors",
    status: 200,
    response: {
      data: [
        {
          executor_id: "task-service-1",
          connection_id: "conn_01m8thv6513fgxkaz44km79c6c",
          epoch: 1,
          binding_ids: ["task-service"],
          online: true,
          connected_at: "2026-12-02T04:57:41.793Z",
          last_heartbeat_at: "2026-12-02T04:57:41.807Z",
          lease_expires_at: "2026-12-02T04:57:56.807Z",
          disconnected_at: null,
          tool_names: ["tasks.create", "tasks.delete"],
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "compensateToolCall",
    method: "POST",
    path: "/v1/runs/run_01m8thv65rmzs1basjzspf5dbg/tool-calls/call_01m8thv65rmzs1basjzspf5dbj/compensate",
    request: {
      tool_name: "tasks.delete",
      arguments: {
        task_id: "task-1",
      },
    },
    status: 201,
    response: {
      call_id: "call_01m8thv6gvwrdct16sxj80degw",
      run_id: "run_01m8thv65rmzs1basjzspf5dbg",
      tool_name: "tasks.delete",
      effect: "write",
      status: "pending",
      arguments_digest: "sha256:8076f8fc7f4e66be2f5b3ebd07dba6328ab7043e838b3d7b50037ec25021c811",
      deadline: "2026-12-02T05:02:42.171Z",
      created_at: "2026-12-02T04:57:42.171Z",
      updated_at: "2026-12-02T04:57:42.171Z",
      binding_id: "task-service",
      compensates: "call_01m8thv65rmzs1basjzspf5dbj",
    },
  },
  {
    operationId: "cancelToolCall",
    method: "POST",
    path: "/v1/runs/run_01m8thv65rmzs1basjzspf5dbg/tool-calls/call_01m8thv6gvwrdct16sxj80degw/cancel",
    request: {},
    status: 200,
    response: {
      call_id: "call_01m8thv6gvwrdct16sxj80degw",
      status: "cancelled",
      cancel_requested: true,
    },
  },
  {
    operationId: "cancelToolCall",
    method: "POST",
    path: "/v1/runs/run_01m8thv65rmzs1basjzspf5dbg/tool-calls/call_01m8thv65rmzs1basjzspf5dbj/cancel",
    request: {},
    status: 409,
    response: {
      error: {
        code: "call_already_final",
        message: 'tool call "call_01m8thv65rmzs1basjzspf5dbj" is already completed',
        details: {
          status: "completed",
        },
        request_id: "req_01m8thv6hk8a8wj5tb80bpx5ak",
      },
    },
  },
  {
    operationId: "createRun",
    method: "POST",
    path: "/v1/sessions/ses_01m8thv63fx52eapya8jppnasg/runs",
    request: {
      input: "Add 'Buy bread'",
    },
    status: 201,
    response: {
      run_id: "run_01m8thv6hrryb3kz5shqvp1qkp",
      session_id: "ses_01m8thv63fx52eapya8jppnasg",
      agent_id: "agt_01m8thv61x06kz4t29kwgpfbdq",
      agent_version: "agv_01m8thv626p8hz91xpf5rssa7m",
      status: "waiting_for_tools",
      created_at: "2026-12-02T04:57:42.200Z",
      updated_at: "2026-12-02T04:57:42.200Z",
    },
  },
  {
    operationId: "cancelRun",
    method: "POST",
    path: "/v1/runs/run_01m8thv6hrryb3kz5shqvp1qkp/cancel",
    status: 200,
    response: {
      run_id: "run_01m8thv6hrryb3kz5shqvp1qkp",
      status: "cancelled",
    },
  },
  {
    operationId: "cancelRun",
    method: "POST",
    path: "/v1/runs/run_01m8thv6hrryb3kz5shqvp1qkp/cancel",
    status: 409,
    response: {
      error: {
        code: "run_terminated",
        message: 'run "run_01m8thv6hrryb3kz5shqvp1qkp" has ended (cancelled)',
        details: {
          status: "cancelled",
        },
        request_id: "req_01m8thv6j70w54eh8mwt4qkpbh",
      },
    },
  },
  {
    operationId: "disconnectExecutor",
    method: "POST",
    path: "/v1/executors/task-service-1/disconnect",
    request: {
      connection_id: "conn_01m8thv6513fgxkaz44km79c6c",
    },
    status: 200,
    response: {
      executor_id: "task-service-1",
      online: false,
      released: [],
    },
  },
  {
    operationId: "heartbeatExecutor",
    method: "POST",
    path: "/v1/executors/task-service-1/heartbeat",
    request: {
      connection_id: "conn_01m8thv6513fgxkaz44km79c6c",
    },
    status: 409,
    response: {
      error: {
        code: "connection_offline",
        message:
          'connection "conn_01m8thv6513fgxkaz44km79c6c" of executor "task-service-1" is offline (its lease lapsed or it detached); connect again',
        request_id: "req_01m8thv6jnyn3mfnk5cs7weyz7",
      },
    },
  },
  {
    operationId: "getRun",
    method: "GET",
    path: "/v1/runs/run_missing",
    status: 404,
    response: {
      error: {
        code: "not_found",
        message: 'run "run_missing" not found',
        request_id: "req_01m8thv6jvv9x67cjg48enfa44",
      },
    },
  },
  {
    operationId: "listRuns",
    method: "GET",
    path: "/v1/runs",
    status: 401,
    response: {
      error: {
        code: "unauthorized",
        message: "the API key is not valid",
        request_id: "req_01m8thv6jxjsjnqbkgkmfkj021",
      },
    },
  },
  {
    operationId: "createAgent",
    method: "POST",
    path: "/v1/agents",
    request: {
      name: "x",
      colour: "blue",
    },
    status: 422,
    response: {
      error: {
        code: "unknown_field",
        message: 'unknown field "colour"',
        pointer: "/colour",
        details: {
          in: "body",
          field: "colour",
        },
        request_id: "req_01m8thv6jz98s1kptd33f07fgy",
      },
    },
  },
  {
    operationId: "listAgents",
    method: "GET",
    path: "/v1/agents",
    status: 403,
    response: {
      error: {
        code: "forbidden",
        message: "this operation needs the scope configuration:read",
        details: {
          required_scopes: ["configuration:read"],
        },
        request_id: "req_01m8thv6k14e2r6kx2pfvdgs61",
      },
    },
  },
  {
    operationId: "revokeKey",
    method: "DELETE",
    path: "/v1/keys/key_01m8thv5sand1pvn1xmsk3q3fn",
    status: 200,
    response: {
      key_id: "key_01m8thv5sand1pvn1xmsk3q3fn",
      revoked: true,
      revoked_at: "2026-12-02T04:57:42.244Z",
    },
  },
];
