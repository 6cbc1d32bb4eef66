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
          key_id: "key_01m8sszzjy8a8eac9ymmf21gb8",
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
          created_at: "2026-12-01T13:30:46.355Z",
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
      key_id: "key_01m8st037yqsefm6rpwjj93dht",
      name: "task service executor",
      scopes: ["executors:connect", "tools:execute"],
      agents: "*",
      bindings: "*",
      connections: "*",
      created_at: "2026-12-01T13:30:46.835Z",
      key: "th_qU6RT6UZHWfy1s5H-4RIfyo0vzytvOR_BsauK0-Uhy4",
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
          key_id: "key_01m8sszzjy8a8eac9ymmf21gb8",
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
          created_at: "2026-12-01T13:30:46.355Z",
          revoked_at: null,
        },
        {
          key_id: "key_01m8st037yqsefm6rpwjj93dht",
          name: "task service executor",
          scopes: ["executors:connect", "tools:execute"],
          agents: "*",
          bindings: "*",
          connections: "*",
          created_at: "2026-12-01T13:30:46.835Z",
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
      created_at: "2026-12-01T22:00:57.127Z",
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
        request_id: "req_01m8st03ms3e2d5rr2kqf0hq44",
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
          created_at: "2026-12-01T22:00:57.127Z",
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
      created_at: "2026-12-01T22:00:57.127Z",
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
      toolset_id: "tls_01m8st0447qb1acrs2ay6xnkba",
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
      created_at: "2026-12-01T22:00:57.735Z",
    },
  },
  {
    operationId: "publishToolsetVersion",
    method: "POST",
    path: "/v1/toolsets/tls_01m8st0447qb1acrs2ay6xnkba/versions",
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
      toolset_id: "tls_01m8st0447qb1acrs2ay6xnkba",
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
      created_at: "2026-12-01T22:00:57.819Z",
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
          toolset_id: "tls_01m8st0447qb1acrs2ay6xnkba",
          name: "task service",
          latest_version: 2,
          created_at: "2026-12-01T22:00:57.735Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getToolset",
    method: "GET",
    path: "/v1/toolsets/tls_01m8st0447qb1acrs2ay6xnkba",
    status: 200,
    response: {
      toolset_id: "tls_01m8st0447qb1acrs2ay6xnkba",
      name: "task service",
      latest_version: 2,
      created_at: "2026-12-01T22:00:57.735Z",
    },
  },
  {
    operationId: "listToolsetVersions",
    method: "GET",
    path: "/v1/toolsets/tls_01m8st0447qb1acrs2ay6xnkba/versions",
    status: 200,
    response: {
      data: [
        {
          toolset_id: "tls_01m8st0447qb1acrs2ay6xnkba",
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
          created_at: "2026-12-01T22:00:57.735Z",
        },
        {
          toolset_id: "tls_01m8st0447qb1acrs2ay6xnkba",
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
          created_at: "2026-12-01T22:00:57.819Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getToolsetVersion",
    method: "GET",
    path: "/v1/toolsets/tls_01m8st0447qb1acrs2ay6xnkba/versions/2",
    status: 200,
    response: {
      toolset_id: "tls_01m8st0447qb1acrs2ay6xnkba",
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
      created_at: "2026-12-01T22:00:57.819Z",
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
      agent_id: "agt_01m8st04end3vb845467qj1scv",
      name: "task assistant",
      created_at: "2026-12-01T22:00:58.069Z",
    },
  },
  {
    operationId: "publishAgentVersion",
    method: "POST",
    path: "/v1/agents/agt_01m8st04end3vb845467qj1scv/versions",
    request: {
      toolset_id: "tls_01m8st0447qb1acrs2ay6xnkba",
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
      agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
      agent_id: "agt_01m8st04end3vb845467qj1scv",
      toolset_id: "tls_01m8st0447qb1acrs2ay6xnkba",
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
      created_at: "2026-12-01T22:00:58.153Z",
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
          agent_id: "agt_01m8st04end3vb845467qj1scv",
          name: "task assistant",
          created_at: "2026-12-01T22:00:58.069Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getAgent",
    method: "GET",
    path: "/v1/agents/agt_01m8st04end3vb845467qj1scv",
    status: 200,
    response: {
      agent_id: "agt_01m8st04end3vb845467qj1scv",
      name: "task assistant",
      created_at: "2026-12-01T22:00:58.069Z",
    },
  },
  {
    operationId: "listAgentVersions",
    method: "GET",
    path: "/v1/agents/agt_01m8st04end3vb845467qj1scv/versions",
    status: 200,
    response: {
      data: [
        {
          agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
          agent_id: "agt_01m8st04end3vb845467qj1scv",
          toolset_id: "tls_01m8st0447qb1acrs2ay6xnkba",
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
          created_at: "2026-12-01T22:00:58.153Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getAgentVersion",
    method: "GET",
    path: "/v1/agents/agt_01m8st04end3vb845467qj1scv/versions/agv_01m8st04h9jyx16mws4cvyak5w",
    status: 200,
    response: {
      agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
      agent_id: "agt_01m8st04end3vb845467qj1scv",
      toolset_id: "tls_01m8st0447qb1acrs2ay6xnkba",
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
      created_at: "2026-12-01T22:00:58.153Z",
    },
  },
  {
    operationId: "createSession",
    method: "POST",
    path: "/v1/sessions",
    request: {
      agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
      subject: "user-42",
    },
    status: 201,
    response: {
      session_id: "ses_01m8st04q2zj8ftv44tq9f243h",
      agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
      agent_id: "agt_01m8st04end3vb845467qj1scv",
      subject: "user-42",
      created_at: "2026-12-01T22:00:58.338Z",
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
          session_id: "ses_01m8st04q2zj8ftv44tq9f243h",
          agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
          agent_id: "agt_01m8st04end3vb845467qj1scv",
          subject: "user-42",
          created_at: "2026-12-01T22:00:58.338Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getSession",
    method: "GET",
    path: "/v1/sessions/ses_01m8st04q2zj8ftv44tq9f243h",
    status: 200,
    response: {
      session_id: "ses_01m8st04q2zj8ftv44tq9f243h",
      agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
      agent_id: "agt_01m8st04end3vb845467qj1scv",
      subject: "user-42",
      created_at: "2026-12-01T22:00:58.338Z",
    },
  },
  {
    operationId: "dryRunToolCall",
    method: "POST",
    path: "/v1/tools/dry-run",
    request: {
      agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
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
      connection_id: "conn_01m8st04vs0wzzjcw6f22cccyj",
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
      connection_id: "conn_01m8st04vs0wzzjcw6f22cccyj",
    },
    status: 200,
    response: {
      executor_id: "task-service-1",
      connection_id: "conn_01m8st04vs0wzzjcw6f22cccyj",
      lease_expires_at: "2026-12-01T22:01:13.535Z",
      heartbeat_interval_ms: 5000,
      cancellations: [],
    },
  },
  {
    operationId: "createRun",
    method: "POST",
    path: "/v1/sessions/ses_01m8st04q2zj8ftv44tq9f243h/runs",
    request: {
      input: "Add 'Buy milk' to my tasks",
    },
    status: 201,
    response: {
      run_id: "run_01m8st04yv38mm638az64rkf56",
      session_id: "ses_01m8st04q2zj8ftv44tq9f243h",
      agent_id: "agt_01m8st04end3vb845467qj1scv",
      agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
      status: "waiting_for_tools",
      created_at: "2026-12-01T22:00:58.587Z",
      updated_at: "2026-12-01T22:00:58.587Z",
    },
  },
  {
    operationId: "listPendingCalls",
    method: "GET",
    path: "/v1/executors/task-service-1/pending?connection_id=conn_01m8st04vs0wzzjcw6f22cccyj&wait_ms=5000",
    status: 200,
    response: {
      data: [
        {
          run_id: "run_01m8st04yv38mm638az64rkf56",
          call_id: "call_01m8st04yv38mm638az64rkf58",
          tool_name: "tasks.create",
          binding_id: "task-service",
          created_at: "2026-12-01T22:00:58.587Z",
        },
      ],
      cancellations: [],
      next_cursor: null,
    },
  },
  {
    operationId: "claimToolCall",
    method: "POST",
    path: "/v1/runs/run_01m8st04yv38mm638az64rkf56/tool-calls/call_01m8st04yv38mm638az64rkf58/claim",
    request: {
      executor_id: "task-service-1",
      connection_id: "conn_01m8st04vs0wzzjcw6f22cccyj",
    },
    status: 200,
    response: {
      claim_id: "clm_01m8st05bq4qp21nymzn88rp4e",
      grant: "nfLdfhMBT9LmWJVs3P6JfkiarWkJgOX6h1lCg7QRXkc",
      replayed: false,
      call: {
        run_id: "run_01m8st04yv38mm638az64rkf56",
        call_id: "call_01m8st04yv38mm638az64rkf58",
        tool_name: "tasks.create",
        binding_id: "task-service",
        effect: "write",
        arguments: {
          title: "Buy milk",
        },
        arguments_digest: "sha256:6330399f2342cfc9311b85fb26dcac5b706b3080b49e3aadedde2f3a864efdc9",
        subject: "user-42",
        agent_id: "agt_01m8st04end3vb845467qj1scv",
        agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
        toolset_id: "tls_01m8st0447qb1acrs2ay6xnkba",
        toolset_version: 2,
        deadline: "2026-12-01T22:01:58.587Z",
        accept_deadline: "2026-12-01T22:01:28.999Z",
      },
    },
  },
  {
    operationId: "sendReceipt",
    method: "POST",
    path: "/v1/runs/run_01m8st04yv38mm638az64rkf56/tool-calls/call_01m8st04yv38mm638az64rkf58/receipts",
    request: {
      receipt_id: "r-1",
      executor_id: "task-service-1",
      claim_id: "clm_01m8st05bq4qp21nymzn88rp4e",
      grant: "nfLdfhMBT9LmWJVs3P6JfkiarWkJgOX6h1lCg7QRXkc",
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
    path: "/v1/runs/run_01m8st04yv38mm638az64rkf56/tool-calls/call_01m8st04yv38mm638az64rkf58/receipts",
    request: {
      receipt_id: "r-2",
      executor_id: "task-service-1",
      claim_id: "clm_01m8st05bq4qp21nymzn88rp4e",
      grant: "nfLdfhMBT9LmWJVs3P6JfkiarWkJgOX6h1lCg7QRXkc",
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
      connection_id: "conn_01m8st04vs0wzzjcw6f22cccyj",
      calls: [
        {
          call_id: "call_01m8st04yv38mm638az64rkf58",
          claim_id: "clm_01m8st05bq4qp21nymzn88rp4e",
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
          call_id: "call_01m8st04yv38mm638az64rkf58",
          run_id: "run_01m8st04yv38mm638az64rkf56",
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
    path: "/v1/runs/run_01m8st04yv38mm638az64rkf56/tool-calls/call_01m8st04yv38mm638az64rkf58/receipts",
    request: {
      receipt_id: "r-3",
      executor_id: "task-service-1",
      claim_id: "clm_01m8st05bq4qp21nymzn88rp4e",
      grant: "nfLdfhMBT9LmWJVs3P6JfkiarWkJgOX6h1lCg7QRXkc",
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
    path: "/v1/runs/run_01m8st04yv38mm638az64rkf56/tool-calls/call_01m8st04yv38mm638az64rkf58/receipts",
    request: {
      receipt_id: "r-3",
      executor_id: "task-service-1",
      claim_id: "clm_01m8st05bq4qp21nymzn88rp4e",
      grant: "nfLdfhMBT9LmWJVs3P6JfkiarWkJgOX6h1lCg7QRXkc",
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
    path: "/v1/runs/run_01m8st04yv38mm638az64rkf56/tool-calls/call_01m8st04yv38mm638az64rkf58/receipts",
    request: {
      receipt_id: "r-3",
      executor_id: "task-service-1",
      claim_id: "clm_01m8st05bq4qp21nymzn88rp4e",
      grant: "nfLdfhMBT9LmWJVs3P6JfkiarWkJgOX6h1lCg7QRXkc",
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
        request_id: "req_01m8st05tde9q8be72jpwh7sxz",
      },
    },
  },
  {
    operationId: "getRun",
    method: "GET",
    path: "/v1/runs/run_01m8st04yv38mm638az64rkf56",
    status: 200,
    response: {
      run_id: "run_01m8st04yv38mm638az64rkf56",
      session_id: "ses_01m8st04q2zj8ftv44tq9f243h",
      agent_id: "agt_01m8st04end3vb845467qj1scv",
      agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
      status: "completed",
      created_at: "2026-12-01T22:00:58.587Z",
      updated_at: "2026-12-01T22:00:59.363Z",
      output: "Done.",
      ended_at: "2026-12-01T22:00:59.363Z",
    },
  },
  {
    operationId: "listSessionRuns",
    method: "GET",
    path: "/v1/sessions/ses_01m8st04q2zj8ftv44tq9f243h/runs",
    status: 200,
    response: {
      data: [
        {
          run_id: "run_01m8st04yv38mm638az64rkf56",
          session_id: "ses_01m8st04q2zj8ftv44tq9f243h",
          agent_id: "agt_01m8st04end3vb845467qj1scv",
          agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
          status: "completed",
          created_at: "2026-12-01T22:00:58.587Z",
          updated_at: "2026-12-01T22:00:59.363Z",
          output: "Done.",
          ended_at: "2026-12-01T22:00:59.363Z",
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
          run_id: "run_01m8st04yv38mm638az64rkf56",
          session_id: "ses_01m8st04q2zj8ftv44tq9f243h",
          agent_id: "agt_01m8st04end3vb845467qj1scv",
          agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
          status: "completed",
          created_at: "2026-12-01T22:00:58.587Z",
          updated_at: "2026-12-01T22:00:59.363Z",
          output: "Done.",
          ended_at: "2026-12-01T22:00:59.363Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "listToolCalls",
    method: "GET",
    path: "/v1/runs/run_01m8st04yv38mm638az64rkf56/tool-calls",
    status: 200,
    response: {
      data: [
        {
          call_id: "call_01m8st04yv38mm638az64rkf58",
          run_id: "run_01m8st04yv38mm638az64rkf56",
          tool_name: "tasks.create",
          effect: "write",
          status: "completed",
          arguments_digest: "sha256:6330399f2342cfc9311b85fb26dcac5b706b3080b49e3aadedde2f3a864efdc9",
          deadline: "2026-12-01T22:01:58.587Z",
          created_at: "2026-12-01T22:00:58.587Z",
          updated_at: "2026-12-01T22:00:59.363Z",
          turn: 0,
          binding_id: "task-service",
          executor_id: "task-service-1",
          claim_id: "clm_01m8st05bq4qp21nymzn88rp4e",
          claimed_at: "2026-12-01T22:00:58.999Z",
          accepted_at: "2026-12-01T22:00:59.134Z",
          settled_at: "2026-12-01T22:00:59.363Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "listCallReceipts",
    method: "GET",
    path: "/v1/runs/run_01m8st04yv38mm638az64rkf56/tool-calls/call_01m8st04yv38mm638az64rkf58/receipts",
    status: 200,
    response: {
      call_id: "call_01m8st04yv38mm638az64rkf58",
      receipts: [
        {
          receipt_id: "r-1",
          seq: 1,
          kind: "accepted",
          executor_id: "task-service-1",
          claim_id: "clm_01m8st05bq4qp21nymzn88rp4e",
          applied: true,
          body_bytes: 167,
          created_at: "2026-12-01T22:00:59.134Z",
        },
        {
          receipt_id: "r-2",
          seq: 2,
          kind: "progress",
          executor_id: "task-service-1",
          claim_id: "clm_01m8st05bq4qp21nymzn88rp4e",
          applied: true,
          body_bytes: 193,
          created_at: "2026-12-01T22:00:59.259Z",
        },
        {
          receipt_id: "r-3",
          seq: 3,
          kind: "completed",
          executor_id: "task-service-1",
          claim_id: "clm_01m8st05bq4qp21nymzn88rp4e",
          applied: true,
          body_bytes: 217,
          created_at: "2026-12-01T22:00:59.363Z",
        },
      ],
    },
  },
  {
    operationId: "getRunHistory",
    method: "GET",
    path: "/v1/runs/run_01m8st04yv38mm638az64rkf56/history",
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
              call_id: "call_01m8st04yv38mm638az64rkf58",
              name: "tasks.create",
              arguments: {
                title: "Buy milk",
              },
            },
          ],
        },
        {
          type: "tool_result",
          call_id: "call_01m8st04yv38mm638az64rkf58",
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
    path: "/v1/runs/run_01m8st04yv38mm638az64rkf56/model-requests",
    status: 200,
    response: {
      data: [
        {
          request_id: "mrq_01m8st04yv38mm638az64rkf57",
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
          created_at: "2026-12-01T22:00:58.587Z",
        },
        {
          request_id: "mrq_01m8st05q3fjxd3a30mk8w7yny",
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
          created_at: "2026-12-01T22:00:59.363Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "diagnoseBinding",
    method: "GET",
    path: "/v1/agents/agt_01m8st04end3vb845467qj1scv/executor-bindings/task-service/diagnostics",
    status: 200,
    response: {
      agent_id: "agt_01m8st04end3vb845467qj1scv",
      binding_id: "task-service",
      referenced: true,
      referenced_by: [
        {
          agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
          toolset_id: "tls_01m8st0447qb1acrs2ay6xnkba",
          toolset_version: 2,
        },
      ],
      tools: [
        {
          name: "tasks.create",
          agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
          effect: "write",
          max_result_context_bytes: 16384,
        },
        {
          name: "tasks.delete",
          agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
          effect: "write",
          max_result_context_bytes: 16384,
        },
      ],
      executors: {
        online: [
          {
            executor_id: "task-service-1",
            connection_id: "conn_01m8st04vs0wzzjcw6f22cccyj",
            connected_at: "2026-12-01T22:00:58.489Z",
            last_heartbeat_at: "2026-12-01T22:00:58.535Z",
            lease_expires_at: "2026-12-01T22:01:13.535Z",
            tool_names: ["tasks.create", "tasks.delete"],
          },
        ],
        last_heartbeat_at: "2026-12-01T22:00:58.535Z",
      },
      calls: {
        pending: 0,
        claimed: 0,
        accepted: 0,
        reconciliation_required: 0,
        oldest_pending_age_ms: null,
      },
      last_verified_execution: {
        run_id: "run_01m8st04yv38mm638az64rkf56",
        call_id: "call_01m8st04yv38mm638az64rkf58",
        tool_name: "tasks.create",
        executor_id: "task-service-1",
        completed_at: "2026-12-01T22:00:59.363Z",
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
          message: 'agent "agt_01m8st04end3vb845467qj1scv" has published versions',
        },
        {
          name: "binding_referenced",
          ok: true,
          message:
            '1 version(s) of agent "agt_01m8st04end3vb845467qj1scv" pin tools on binding "task-service": tasks.create, tasks.delete',
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
          message: 'no call of agent "agt_01m8st04end3vb845467qj1scv" is pending on binding "task-service"',
        },
        {
          name: "no_reconciliation_backlog",
          ok: true,
          message:
            'no call of agent "agt_01m8st04end3vb845467qj1scv" on binding "task-service" waits for reconciliation',
        },
        {
          name: "execution_verified",
          ok: true,
          message:
            'executor "task-service-1" completed call "call_01m8st04yv38mm638az64rkf58" (tasks.create) on binding "task-service" at 2026-12-01T22:00:59.363Z',
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
          connection_id: "conn_01m8st04vs0wzzjcw6f22cccyj",
          epoch: 1,
          binding_ids: ["task-service"],
          online: true,
          connected_at: "2026-12-01T22:00:58.489Z",
          last_heartbeat_at: "2026-12-01T22:00:58.535Z",
          lease_expires_at: "2026-12-01T22:01:13.535Z",
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
    path: "/v1/runs/run_01m8st04yv38mm638az64rkf56/tool-calls/call_01m8st04yv38mm638az64rkf58/compensate",
    request: {
      tool_name: "tasks.delete",
      arguments: {
        task_id: "task-1",
      },
    },
    status: 201,
    response: {
      call_id: "call_01m8st06ejwejxsv81hgz2fz9d",
      run_id: "run_01m8st04yv38mm638az64rkf56",
      tool_name: "tasks.delete",
      effect: "write",
      status: "pending",
      arguments_digest: "sha256:8076f8fc7f4e66be2f5b3ebd07dba6328ab7043e838b3d7b50037ec25021c811",
      deadline: "2026-12-01T22:06:00.114Z",
      created_at: "2026-12-01T22:01:00.114Z",
      updated_at: "2026-12-01T22:01:00.114Z",
      binding_id: "task-service",
      compensates: "call_01m8st04yv38mm638az64rkf58",
    },
  },
  {
    operationId: "cancelToolCall",
    method: "POST",
    path: "/v1/runs/run_01m8st04yv38mm638az64rkf56/tool-calls/call_01m8st06ejwejxsv81hgz2fz9d/cancel",
    request: {},
    status: 200,
    response: {
      call_id: "call_01m8st06ejwejxsv81hgz2fz9d",
      status: "cancelled",
      cancel_requested: true,
    },
  },
  {
    operationId: "cancelToolCall",
    method: "POST",
    path: "/v1/runs/run_01m8st04yv38mm638az64rkf56/tool-calls/call_01m8st04yv38mm638az64rkf58/cancel",
    request: {},
    status: 409,
    response: {
      error: {
        code: "call_already_final",
        message: 'tool call "call_01m8st04yv38mm638az64rkf58" is already completed',
        details: {
          status: "completed",
        },
        request_id: "req_01m8st06jpbvm0ahk5eygweytk",
      },
    },
  },
  {
    operationId: "createRun",
    method: "POST",
    path: "/v1/sessions/ses_01m8st04q2zj8ftv44tq9f243h/runs",
    request: {
      input: "Add 'Buy bread'",
    },
    status: 201,
    response: {
      run_id: "run_01m8st06k6xsekas6hdhhs4088",
      session_id: "ses_01m8st04q2zj8ftv44tq9f243h",
      agent_id: "agt_01m8st04end3vb845467qj1scv",
      agent_version: "agv_01m8st04h9jyx16mws4cvyak5w",
      status: "waiting_for_tools",
      created_at: "2026-12-01T22:01:00.262Z",
      updated_at: "2026-12-01T22:01:00.262Z",
    },
  },
  {
    operationId: "cancelRun",
    method: "POST",
    path: "/v1/runs/run_01m8st06k6xsekas6hdhhs4088/cancel",
    status: 200,
    response: {
      run_id: "run_01m8st06k6xsekas6hdhhs4088",
      status: "cancelled",
    },
  },
  {
    operationId: "cancelRun",
    method: "POST",
    path: "/v1/runs/run_01m8st06k6xsekas6hdhhs4088/cancel",
    status: 409,
    response: {
      error: {
        code: "run_terminated",
        message: 'run "run_01m8st06k6xsekas6hdhhs4088" has ended (cancelled)',
        details: {
          status: "cancelled",
        },
        request_id: "req_01m8st06n4y1106cda6n2tk3hb",
      },
    },
  },
  {
    operationId: "disconnectExecutor",
    method: "POST",
    path: "/v1/executors/task-service-1/disconnect",
    request: {
      connection_id: "conn_01m8st04vs0wzzjcw6f22cccyj",
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
      connection_id: "conn_01m8st04vs0wzzjcw6f22cccyj",
    },
    status: 409,
    response: {
      error: {
        code: "connection_offline",
        message:
          'connection "conn_01m8st04vs0wzzjcw6f22cccyj" of executor "task-service-1" is offline (its lease lapsed or it detached); connect again',
        request_id: "req_01m8st06p1r607artcchwfs3vx",
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
        request_id: "req_01m8st06pej163vfb1em0bb9k2",
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
        request_id: "req_01m8st06q5bqwpv1hdxacrwy4n",
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
        request_id: "req_01m8st06q92gacke360qrcp1me",
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
        request_id: "req_01m8st06qb8as22eztpp456mf2",
      },
    },
  },
  {
    operationId: "revokeKey",
    method: "DELETE",
    path: "/v1/keys/key_01m8st037yqsefm6rpwjj93dht",
    status: 200,
    response: {
      key_id: "key_01m8st037yqsefm6rpwjj93dht",
      revoked: true,
      revoked_at: "2026-12-01T22:01:00.397Z",
    },
  },
];
