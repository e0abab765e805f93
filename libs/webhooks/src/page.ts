/** The window of a list an admin asked for (the control plane parses it from `page` and `limit`). */
export interface Page {
  limit: number;
  offset: number;
}
