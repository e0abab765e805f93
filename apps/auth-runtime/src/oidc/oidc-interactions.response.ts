import { ApiProperty } from '@nestjs/swagger';

export class InteractionClientResponse {
  @ApiProperty()
  client_id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  first_party: boolean;
}

export class InteractionResourceScopeResponse {
  @ApiProperty({ example: 'mcp:tools' })
  name: string;

  @ApiProperty({
    example: 'Use the tools of the MCP server',
    description: "The admin's words for the consent screen (may be empty)",
  })
  description: string;
}

export class InteractionResourceResponse {
  @ApiProperty({ example: 'https://mcp.example.com/mcp' })
  identifier: string;

  @ApiProperty({ example: 'MCP server' })
  name: string;

  @ApiProperty({
    type: [InteractionResourceScopeResponse],
    description: 'The requested scopes of this API',
  })
  scopes: InteractionResourceScopeResponse[];
}

export class InteractionResponse {
  @ApiProperty()
  uid: string;

  @ApiProperty({ enum: ['login', 'consent'] })
  prompt: 'login' | 'consent';

  @ApiProperty({
    description:
      'The application asked to create an account (`prompt=create`, OpenID Connect Initiating User Registration): show sign-up first',
  })
  create: boolean;

  @ApiProperty({ type: InteractionClientResponse })
  client: InteractionClientResponse;

  @ApiProperty({ type: [String] })
  scopes: string[];

  @ApiProperty({
    type: [InteractionResourceResponse],
    description:
      "The project's API resources the request names (`resource`), with the requested scopes of each",
  })
  resources: InteractionResourceResponse[];

  @ApiProperty({ format: 'date-time' })
  expires_at: string;
}

export class InteractionRedirectResponse {
  @ApiProperty({
    description: 'Where the browser goes next (the provider, which continues to the client)',
  })
  redirect_to: string;
}
