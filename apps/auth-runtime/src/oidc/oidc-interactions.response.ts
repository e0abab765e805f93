import { ApiProperty } from '@nestjs/swagger';

export class InteractionClientResponse {
  @ApiProperty()
  client_id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  first_party: boolean;
}

export class InteractionResponse {
  @ApiProperty()
  uid: string;

  @ApiProperty({ enum: ['login', 'consent'] })
  prompt: 'login' | 'consent';

  @ApiProperty({ type: InteractionClientResponse })
  client: InteractionClientResponse;

  @ApiProperty({ type: [String] })
  scopes: string[];

  @ApiProperty({ format: 'date-time' })
  expires_at: string;
}

export class InteractionRedirectResponse {
  @ApiProperty({ description: 'Where the browser goes next (the provider, which continues to the client)' })
  redirect_to: string;
}
