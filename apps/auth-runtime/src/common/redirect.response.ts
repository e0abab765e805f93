import { ApiResponse } from '@nestjs/swagger';

/** A 302 with no body: the browser goes on to `Location` (`description` says where and why). */
export const ApiFoundRedirect = (description: string, location: string) =>
  ApiResponse({
    status: 302,
    description,
    headers: { Location: { description: location, schema: { type: 'string', format: 'uri' } } },
  });
