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
          key_id: "key_01m8sxtjyzjrn7sks6tgmwvsv0",
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
          created_at: "2026-12-01T23:07:50.623Z",
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
      key_id: "key_01m8sxtkd0knmxk0jvm6qncw20",
      name: "task service executor",
      scopes: ["executors:connect", "tools:execute"],
      agents: "*",
      bindings: "*",
      connections: "*",
      created_at: "2026-12-01T23:07:51.072Z",
      key: "th_JAuCZ85aa4rtdXgBGb0QpE1L4REekacvBXdDj-7QCu4",
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
          key_id: "key_01m8sxtjyzjrn7sks6tgmwvsv0",
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
          created_at: "2026-12-01T23:07:50.623Z",
          revoked_at: null,
        },
        {
          key_id: "key_01m8sxtkd0knmxk0jvm6qncw20",
          name: "task service executor",
          scopes: ["executors:connect", "tools:execute"],
          agents: "*",
          bindings: "*",
          connections: "*",
          created_at: "2026-12-01T23:07:51.072Z",
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
      created_at: "2026-12-01T23:07:51.096Z",
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
        request_id: "req_01m8sxtkdvkmh0kxfw98y88b7p",
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
          created_at: "2026-12-01T23:07:51.096Z",
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
      created_at: "2026-12-01T23:07:51.096Z",
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
      toolset_id: "tls_01m8sxtkfda8499a3ktedtb97a",
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
      created_at: "2026-12-01T23:07:51.149Z",
    },
  },
  {
    operationId: "publishToolsetVersion",
    method: "POST",
    path: "/v1/toolsets/tls_01m8sxtkfda8499a3ktedtb97a/versions",
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
      toolset_id: "tls_01m8sxtkfda8499a3ktedtb97a",
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
      created_at: "2026-12-01T23:07:51.159Z",
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
          toolset_id: "tls_01m8sxtkfda8499a3ktedtb97a",
          name: "task service",
          latest_version: 2,
          created_at: "2026-12-01T23:07:51.149Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getToolset",
    method: "GET",
    path: "/v1/toolsets/tls_01m8sxtkfda8499a3ktedtb97a",
    status: 200,
    response: {
      toolset_id: "tls_01m8sxtkfda8499a3ktedtb97a",
      name: "task service",
      latest_version: 2,
      created_at: "2026-12-01T23:07:51.149Z",
    },
  },
  {
    operationId: "listToolsetVersions",
    method: "GET",
    path: "/v1/toolsets/tls_01m8sxtkfda8499a3ktedtb97a/versions",
    status: 200,
    response: {
      data: [
        {
          toolset_id: "tls_01m8sxtkfda8499a3ktedtb97a",
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
          created_at: "2026-12-01T23:07:51.149Z",
        },
        {
          toolset_id: "tls_01m8sxtkfda8499a3ktedtb97a",
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
          created_at: "2026-12-01T23:07:51.159Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getToolsetVersion",
    method: "GET",
    path: "/v1/toolsets/tls_01m8sxtkfda8499a3ktedtb97a/versions/2",
    status: 200,
    response: {
      toolset_id: "tls_01m8sxtkfda8499a3ktedtb97a",
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
      created_at: "2026-12-01T23:07:51.159Z",
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
      agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
      name: "task assistant",
      created_at: "2026-12-01T23:07:51.184Z",
    },
  },
  {
    operationId: "publishAgentVersion",
    method: "POST",
    path: "/v1/agents/agt_01m8sxtkggrm8npgq6tyynw9qj/versions",
    request: {
      toolset_id: "tls_01m8sxtkfda8499a3ktedtb97a",
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
      agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
      agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
      toolset_id: "tls_01m8sxtkfda8499a3ktedtb97a",
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
      created_at: "2026-12-01T23:07:51.193Z",
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
          agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
          name: "task assistant",
          created_at: "2026-12-01T23:07:51.184Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getAgent",
    method: "GET",
    path: "/v1/agents/agt_01m8sxtkggrm8npgq6tyynw9qj",
    status: 200,
    response: {
      agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
      name: "task assistant",
      created_at: "2026-12-01T23:07:51.184Z",
    },
  },
  {
    operationId: "listAgentVersions",
    method: "GET",
    path: "/v1/agents/agt_01m8sxtkggrm8npgq6tyynw9qj/versions",
    status: 200,
    response: {
      data: [
        {
          agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
          agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
          toolset_id: "tls_01m8sxtkfda8499a3ktedtb97a",
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
          created_at: "2026-12-01T23:07:51.193Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getAgentVersion",
    method: "GET",
    path: "/v1/agents/agt_01m8sxtkggrm8npgq6tyynw9qj/versions/agv_01m8sxtkgszcy1szvfm6s4gdq7",
    status: 200,
    response: {
      agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
      agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
      toolset_id: "tls_01m8sxtkfda8499a3ktedtb97a",
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
      created_at: "2026-12-01T23:07:51.193Z",
    },
  },
  {
    operationId: "createSession",
    method: "POST",
    path: "/v1/sessions",
    request: {
      agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
      subject: "user-42",
    },
    status: 201,
    response: {
      session_id: "ses_01m8sxtkhc5d8kyrj7yrdmycna",
      agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
      agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
      subject: "user-42",
      created_at: "2026-12-01T23:07:51.212Z",
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
          session_id: "ses_01m8sxtkhc5d8kyrj7yrdmycna",
          agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
          agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
          subject: "user-42",
          created_at: "2026-12-01T23:07:51.212Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "getSession",
    method: "GET",
    path: "/v1/sessions/ses_01m8sxtkhc5d8kyrj7yrdmycna",
    status: 200,
    response: {
      session_id: "ses_01m8sxtkhc5d8kyrj7yrdmycna",
      agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
      agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
      subject: "user-42",
      created_at: "2026-12-01T23:07:51.212Z",
    },
  },
  {
    operationId: "dryRunToolCall",
    method: "POST",
    path: "/v1/tools/dry-run",
    request: {
      agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
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
      connection_id: "conn_01m8sxtkj7dp0m2zt7j8pc2e1p",
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
      connection_id: "conn_01m8sxtkj7dp0m2zt7j8pc2e1p",
    },
    status: 200,
    response: {
      executor_id: "task-service-1",
      connection_id: "conn_01m8sxtkj7dp0m2zt7j8pc2e1p",
      lease_expires_at: "2026-12-01T23:08:06.244Z",
      heartbeat_interval_ms: 5000,
      cancellations: [],
    },
  },
  {
    operationId: "createRun",
    method: "POST",
    path: "/v1/sessions/ses_01m8sxtkhc5d8kyrj7yrdmycna/runs",
    request: {
      input: "Add 'Buy milk' to my tasks",
    },
    status: 201,
    response: {
      run_id: "run_01m8sxtkjhz52wpw5cw936mkvh",
      session_id: "ses_01m8sxtkhc5d8kyrj7yrdmycna",
      agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
      agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
      status: "waiting_for_tools",
      created_at: "2026-12-01T23:07:51.249Z",
      updated_at: "2026-12-01T23:07:51.249Z",
    },
  },
  {
    operationId: "listPendingCalls",
    method: "GET",
    path: "/v1/executors/task-service-1/pending?connection_id=conn_01m8sxtkj7dp0m2zt7j8pc2e1p&wait_ms=5000",
    status: 200,
    response: {
      data: [
        {
          run_id: "run_01m8sxtkjhz52wpw5cw936mkvh",
          call_id: "call_01m8sxtkjhz52wpw5cw936mkvk",
          tool_name: "tasks.create",
          binding_id: "task-service",
          created_at: "2026-12-01T23:07:51.249Z",
        },
      ],
      cancellations: [],
      next_cursor: null,
    },
  },
  {
    operationId: "claimToolCall",
    method: "POST",
    path: "/v1/runs/run_01m8sxtkjhz52wpw5cw936mkvh/tool-calls/call_01m8sxtkjhz52wpw5cw936mkvk/claim",
    request: {
      executor_id: "task-service-1",
      connection_id: "conn_01m8sxtkj7dp0m2zt7j8pc2e1p",
    },
    status: 200,
    response: {
      claim_id: "clm_01m8sxtkkwn2pd7cv19hwxscjp",
      grant: "W-sr5Sl41pIdsEjW2fxrLr0wBmyUfuu-KqIjMNlK9jE",
      replayed: false,
      call: {
        run_id: "run_01m8sxtkjhz52wpw5cw936mkvh",
        call_id: "call_01m8sxtkjhz52wpw5cw936mkvk",
        tool_name: "tasks.create",
        binding_id: "task-service",
        effect: "write",
        arguments: {
          title: "Buy milk",
        },
        arguments_digest: "sha256:6330399f2342cfc9311b85fb26dcac5b706b3080b49e3aadedde2f3a864efdc9",
        subject: "user-42",
        agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
        agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
        toolset_id: "tls_01m8sxtkfda8499a3ktedtb97a",
        toolset_version: 2,
        deadline: "2026-12-01T23:08:51.249Z",
        accept_deadline: "2026-12-01T23:08:21.292Z",
      },
    },
  },
  {
    operationId: "sendReceipt",
    method: "POST",
    path: "/v1/runs/run_01m8sxtkjhz52wpw5cw936mkvh/tool-calls/call_01m8sxtkjhz52wpw5cw936mkvk/receipts",
    request: {
      receipt_id: "r-1",
      executor_id: "task-service-1",
      claim_id: "clm_01m8sxtkkwn2pd7cv19hwxscjp",
      grant: "W-sr5Sl41pIdsEjW2fxrLr0wBmyUfuu-KqIjMNlK9jE",
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
    path: "/v1/runs/run_01m8sxtkjhz52wpw5cw936mkvh/tool-calls/call_01m8sxtkjhz52wpw5cw936mkvk/receipts",
    request: {
      receipt_id: "r-2",
      executor_id: "task-service-1",
      claim_id: "clm_01m8sxtkkwn2pd7cv19hwxscjp",
      grant: "W-sr5Sl41pIdsEjW2fxrLr0wBmyUfuu-KqIjMNlK9jE",
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
      connection_id: "conn_01m8sxtkj7dp0m2zt7j8pc2e1p",
      calls: [
        {
          call_id: "call_01m8sxtkjhz52wpw5cw936mkvk",
          claim_id: "clm_01m8sxtkkwn2pd7cv19hwxscjp",
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
          call_id: "call_01m8sxtkjhz52wpw5cw936mkvk",
          run_id: "run_01m8sxtkjhz52wpw5cw936mkvh",
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
    path: "/v1/runs/run_01m8sxtkjhz52wpw5cw936mkvh/tool-calls/call_01m8sxtkjhz52wpw5cw936mkvk/receipts",
    request: {
      receipt_id: "r-3",
      executor_id: "task-service-1",
      claim_id: "clm_01m8sxtkkwn2pd7cv19hwxscjp",
      grant: "W-sr5Sl41pIdsEjW2fxrLr0wBmyUfuu-KqIjMNlK9jE",
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
    path: "/v1/runs/run_01m8sxtkjhz52wpw5cw936mkvh/tool-calls/call_01m8sxtkjhz52wpw5cw936mkvk/receipts",
    request: {
      receipt_id: "r-3",
      executor_id: "task-service-1",
      claim_id: "clm_01m8sxtkkwn2pd7cv19hwxscjp",
      grant: "W-sr5Sl41pIdsEjW2fxrLr0wBmyUfuu-KqIjMNlK9jE",
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
    path: "/v1/runs/run_01m8sxtkjhz52wpw5cw936mkvh/tool-calls/call_01m8sxtkjhz52wpw5cw936mkvk/receipts",
    request: {
      receipt_id: "r-3",
      executor_id: "task-service-1",
      claim_id: "clm_01m8sxtkkwn2pd7cv19hwxscjp",
      grant: "W-sr5Sl41pIdsEjW2fxrLr0wBmyUfuu-KqIjMNlK9jE",
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
        request_id: "req_01m8sxtkn4a70wt2m55c5a2dsg",
      },
    },
  },
  {
    operationId: "getRun",
    method: "GET",
    path: "/v1/runs/run_01m8sxtkjhz52wpw5cw936mkvh",
    status: 200,
    response: {
      run_id: "run_01m8sxtkjhz52wpw5cw936mkvh",
      session_id: "ses_01m8sxtkhc5d8kyrj7yrdmycna",
      agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
      agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
      status: "completed",
      created_at: "2026-12-01T23:07:51.249Z",
      updated_at: "2026-12-01T23:07:51.321Z",
      output: "Done.",
      ended_at: "2026-12-01T23:07:51.321Z",
    },
  },
  {
    operationId: "listSessionRuns",
    method: "GET",
    path: "/v1/sessions/ses_01m8sxtkhc5d8kyrj7yrdmycna/runs",
    status: 200,
    response: {
      data: [
        {
          run_id: "run_01m8sxtkjhz52wpw5cw936mkvh",
          session_id: "ses_01m8sxtkhc5d8kyrj7yrdmycna",
          agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
          agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
          status: "completed",
          created_at: "2026-12-01T23:07:51.249Z",
          updated_at: "2026-12-01T23:07:51.321Z",
          output: "Done.",
          ended_at: "2026-12-01T23:07:51.321Z",
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
          run_id: "run_01m8sxtkjhz52wpw5cw936mkvh",
          session_id: "ses_01m8sxtkhc5d8kyrj7yrdmycna",
          agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
          agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
          status: "completed",
          created_at: "2026-12-01T23:07:51.249Z",
          updated_at: "2026-12-01T23:07:51.321Z",
          output: "Done.",
          ended_at: "2026-12-01T23:07:51.321Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "listToolCalls",
    method: "GET",
    path: "/v1/runs/run_01m8sxtkjhz52wpw5cw936mkvh/tool-calls",
    status: 200,
    response: {
      data: [
        {
          call_id: "call_01m8sxtkjhz52wpw5cw936mkvk",
          run_id: "run_01m8sxtkjhz52wpw5cw936mkvh",
          tool_name: "tasks.create",
          effect: "write",
          status: "completed",
          arguments_digest: "sha256:6330399f2342cfc9311b85fb26dcac5b706b3080b49e3aadedde2f3a864efdc9",
          deadline: "2026-12-01T23:08:51.249Z",
          created_at: "2026-12-01T23:07:51.249Z",
          updated_at: "2026-12-01T23:07:51.321Z",
          turn: 0,
          binding_id: "task-service",
          executor_id: "task-service-1",
          claim_id: "clm_01m8sxtkkwn2pd7cv19hwxscjp",
          claimed_at: "2026-12-01T23:07:51.292Z",
          accepted_at: "2026-12-01T23:07:51.301Z",
          settled_at: "2026-12-01T23:07:51.321Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "listCallReceipts",
    method: "GET",
    path: "/v1/runs/run_01m8sxtkjhz52wpw5cw936mkvh/tool-calls/call_01m8sxtkjhz52wpw5cw936mkvk/receipts",
    status: 200,
    response: {
      call_id: "call_01m8sxtkjhz52wpw5cw936mkvk",
      receipts: [
        {
          receipt_id: "r-1",
          seq: 1,
          kind: "accepted",
          executor_id: "task-service-1",
          claim_id: "clm_01m8sxtkkwn2pd7cv19hwxscjp",
          applied: true,
          body_bytes: 167,
          created_at: "2026-12-01T23:07:51.301Z",
        },
        {
          receipt_id: "r-2",
          seq: 2,
          kind: "progress",
          executor_id: "task-service-1",
          claim_id: "clm_01m8sxtkkwn2pd7cv19hwxscjp",
          applied: true,
          body_bytes: 193,
          created_at: "2026-12-01T23:07:51.308Z",
        },
        {
          receipt_id: "r-3",
          seq: 3,
          kind: "completed",
          executor_id: "task-service-1",
          claim_id: "clm_01m8sxtkkwn2pd7cv19hwxscjp",
          applied: true,
          body_bytes: 217,
          created_at: "2026-12-01T23:07:51.321Z",
        },
      ],
    },
  },
  {
    operationId: "getRunHistory",
    method: "GET",
    path: "/v1/runs/run_01m8sxtkjhz52wpw5cw936mkvh/history",
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
              call_id: "call_01m8sxtkjhz52wpw5cw936mkvk",
              name: "tasks.create",
              arguments: {
                title: "Buy milk",
              },
            },
          ],
        },
        {
          type: "tool_result",
          call_id: "call_01m8sxtkjhz52wpw5cw936mkvk",
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
    path: "/v1/runs/run_01m8sxtkjhz52wpw5cw936mkvh/model-requests",
    status: 200,
    response: {
      data: [
        {
          request_id: "mrq_01m8sxtkjhz52wpw5cw936mkvj",
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
          created_at: "2026-12-01T23:07:51.249Z",
        },
        {
          request_id: "mrq_01m8sxtkms1mee94xpf0rzvnfq",
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
          created_at: "2026-12-01T23:07:51.321Z",
        },
      ],
      next_cursor: null,
    },
  },
  {
    operationId: "diagnoseBinding",
    method: "GET",
    path: "/v1/agents/agt_01m8sxtkggrm8npgq6tyynw9qj/executor-bindings/task-service/diagnostics",
    status: 200,
    response: {
      agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
      binding_id: "task-service",
      referenced: true,
      referenced_by: [
        {
          agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
          toolset_id: "tls_01m8sxtkfda8499a3ktedtb97a",
          toolset_version: 2,
        },
      ],
      tools: [
        {
          name: "tasks.create",
          agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
          effect: "write",
          max_result_context_bytes: 16384,
        },
        {
          name: "tasks.delete",
          agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
          effect: "write",
          max_result_context_bytes: 16384,
        },
      ],
      executors: {
        online: [
          {
            executor_id: "task-service-1",
            connection_id: "conn_01m8sxtkj7dp0m2zt7j8pc2e1p",
            connected_at: "2026-12-01T23:07:51.239Z",
            last_heartbeat_at: "2026-12-01T23:07:51.244Z",
            lease_expires_at: "2026-12-01T23:08:06.244Z",
            tool_names: ["tasks.create", "tasks.delete"],
          },
        ],
        last_heartbeat_at: "2026-12-01T23:07:51.244Z",
      },
      calls: {
        pending: 0,
        claimed: 0,
        accepted: 0,
        reconciliation_required: 0,
        oldest_pending_age_ms: null,
      },
      last_verified_execution: {
        run_id: "run_01m8sxtkjhz52wpw5cw936mkvh",
        call_id: "call_01m8sxtkjhz52wpw5cw936mkvk",
        tool_name: "tasks.create",
        executor_id: "task-service-1",
        completed_at: "2026-12-01T23:07:51.321Z",
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
          message: 'agent "agt_01m8sxtkggrm8npgq6tyynw9qj" has published versions',
        },
        {
          name: "binding_referenced",
          ok: true,
          message:
            '1 version(s) of agent "agt_01m8sxtkggrm8npgq6tyynw9qj" pin tools on binding "task-service": tasks.create, tasks.delete',
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
          message: 'no call of agent "agt_01m8sxtkggrm8npgq6tyynw9qj" is pending on binding "task-service"',
        },
        {
          name: "no_reconciliation_backlog",
          ok: true,
          message:
            'no call of agent "agt_01m8sxtkggrm8npgq6tyynw9qj" on binding "task-service" waits for reconciliation',
        },
        {
          name: "execution_verified",
          ok: true,
          message:
            'executor "task-service-1" completed call "call_01m8sxtkjhz52wpw5cw936mkvk" (tasks.create) on binding "task-service" at 2026-12-01T23:07:51.321Z',
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
          connection_id: "conn_01m8sxtkj7dp0m2zt7j8pc2e1p",
          epoch: 1,
          binding_ids: ["task-service"],
          online: true,
          connected_at: "2026-12-01T23:07:51.239Z",
          last_heartbeat_at: "2026-12-01T23:07:51.244Z",
          lease_expires_at: "2026-12-01T23:08:06.244Z",
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
    path: "/v1/runs/run_01m8sxtkjhz52wpw5cw936mkvh/tool-calls/call_01m8sxtkjhz52wpw5cw936mkvk/compensate",
    request: {
      tool_name: "tasks.delete",
      arguments: {
        task_id: "task-1",
      },
    },
    status: 201,
    response: {
      call_id: "call_01m8sxtkr29crg2q1gbes5vndd",
      run_id: "run_01m8sxtkjhz52wpw5cw936mkvh",
      tool_name: "tasks.delete",
      effect: "write",
      status: "pending",
      arguments_digest: "sha256:8076f8fc7f4e66be2f5b3ebd07dba6328ab7043e838b3d7b50037ec25021c811",
      deadline: "2026-12-01T23:12:51.426Z",
      created_at: "2026-12-01T23:07:51.426Z",
      updated_at: "2026-12-01T23:07:51.426Z",
      binding_id: "task-service",
      compensates: "call_01m8sxtkjhz52wpw5cw936mkvk",
    },
  },
  {
    operationId: "cancelToolCall",
    method: "POST",
    path: "/v1/runs/run_01m8sxtkjhz52wpw5cw936mkvh/tool-calls/call_01m8sxtkr29crg2q1gbes5vndd/cancel",
    request: {},
    status: 200,
    response: {
      call_id: "call_01m8sxtkr29crg2q1gbes5vndd",
      status: "cancelled",
      cancel_requested: true,
    },
  },
  {
    operationId: "cancelToolCall",
    method: "POST",
    path: "/v1/runs/run_01m8sxtkjhz52wpw5cw936mkvh/tool-calls/call_01m8sxtkjhz52wpw5cw936mkvk/cancel",
    request: {},
    status: 409,
    response: {
      error: {
        code: "call_already_final",
        message: 'tool call "call_01m8sxtkjhz52wpw5cw936mkvk" is already completed',
        details: {
          status: "completed",
        },
        request_id: "req_01m8sxtkrf5dxhg4dzd974wq1s",
      },
    },
  },
  {
    operationId: "createRun",
    method: "POST",
    path: "/v1/sessions/ses_01m8sxtkhc5d8kyrj7yrdmycna/runs",
    request: {
      input: "Add 'Buy bread'",
    },
    status: 201,
    response: {
      run_id: "run_01m8sxtkrj9cwjde85k4jm5d8m",
      session_id: "ses_01m8sxtkhc5d8kyrj7yrdmycna",
      agent_id: "agt_01m8sxtkggrm8npgq6tyynw9qj",
      agent_version: "agv_01m8sxtkgszcy1szvfm6s4gdq7",
      status: "waiting_for_tools",
      created_at: "2026-12-01T23:07:51.442Z",
      updated_at: "2026-12-01T23:07:51.442Z",
    },
  },
  {
    operationId: "cancelRun",
    method: "POST",
    path: "/v1/runs/run_01m8sxtkrj9cwjde85k4jm5d8m/cancel",
    status: 200,
    response: {
      run_id: "run_01m8sxtkrj9cwjde85k4jm5d8m",
      status: "cancelled",
    },
  },
  {
    operationId: "cancelRun",
    method: "POST",
    path: "/v1/runs/run_01m8sxtkrj9cwjde85k4jm5d8m/cancel",
    status: 409,
    response: {
      error: {
        code: "run_terminated",
        message: 'run "run_01m8sxtkrj9cwjde85k4jm5d8m" has ended (cancelled)',
        details: {
          status: "cancelled",
        },
        request_id: "req_01m8sxtkrt2t3tg50tts6wjt3q",
      },
    },
  },
  {
    operationId: "disconnectExecutor",
    method: "POST",
    path: "/v1/executors/task-service-1/disconnect",
    request: {
      connection_id: "conn_01m8sxtkj7dp0m2zt7j8pc2e1p",
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
      connection_id: "conn_01m8sxtkj7dp0m2zt7j8pc2e1p",
    },
    status: 409,
    response: {
      error: {
        code: "connection_offline",
        message:
          'connection "conn_01m8sxtkj7dp0m2zt7j8pc2e1p" of executor "task-service-1" is offline (its lease lapsed or it detached); connect again',
        request_id: "req_01m8sxtks0w7j2y78rsjvy8bv9",
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
        request_id: "req_01m8sxtks2sekg2j7p06xvyj18",
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
        request_id: "req_01m8sxtks306serpsedwb87cmb",
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
        request_id: "req_01m8sxtks55agem76ys47fb6se",
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
        request_id: "req_01m8sxtks6b8bhv8ce3r7j2j8x",
      },
    },
  },
  {
    operationId: "revokeKey",
    method: "DELETE",
    path: "/v1/keys/key_01m8sxtkd0knmxk0jvm6qncw20",
    status: 200,
    response: {
      key_id: "key_01m8sxtkd0knmxk0jvm6qncw20",
      revoked: true,
      revoked_at: "2026-12-01T23:07:51.464Z",
    },
  },
];
