/** One exchange of the tour, as recorded. */
export interface TourExchange {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly request?: unknown;
  readonly status: number;
  readonly response: unknown;
}

/** Runs the tour of the API with an admin key; answers every exchange in order. */
export function tourExchanges(baseUrl: string, adminKey: string): Promise<TourExchange[]>;
