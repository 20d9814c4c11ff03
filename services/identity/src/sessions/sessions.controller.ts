import {
  identityContracts,
  type ParsedRequestOf,
  type ResponseOf,
  type Session,
  type SignInRefusal,
} from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller } from '@nestjs/common';
import { SessionsService } from './sessions.service.js';

type Contracts = typeof identityContracts;
type Outcome = Session | SignInRefusal;

/** The identity service's requests: sessions through the realm, and the users they sign in. */
@Controller()
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @HandleRequest(identityContracts.signIn)
  signIn(request: ParsedRequestOf<Contracts['signIn']>): Promise<Outcome> {
    return this.sessions.signIn(request);
  }

  @HandleRequest(identityContracts.signUp)
  signUp(request: ParsedRequestOf<Contracts['signUp']>): Promise<Outcome> {
    return this.sessions.signUp(request);
  }

  @HandleRequest(identityContracts.refresh)
  refresh(request: ParsedRequestOf<Contracts['refresh']>): Promise<Outcome> {
    return this.sessions.refresh(request);
  }

  @HandleRequest(identityContracts.signOut)
  signOut(
    request: ParsedRequestOf<Contracts['signOut']>,
  ): Promise<ResponseOf<Contracts['signOut']>> {
    return this.sessions.signOut(request);
  }

  @HandleRequest(identityContracts.providers)
  providers(): Promise<ResponseOf<Contracts['providers']>> {
    return this.sessions.providers();
  }

  @HandleRequest(identityContracts.startProvider)
  startProvider(
    request: ParsedRequestOf<Contracts['startProvider']>,
  ): ResponseOf<Contracts['startProvider']> {
    return this.sessions.startProvider(request);
  }

  @HandleRequest(identityContracts.completeProvider)
  completeProvider(request: ParsedRequestOf<Contracts['completeProvider']>): Promise<Outcome> {
    return this.sessions.completeProvider(request);
  }

  @HandleRequest(identityContracts.getUser)
  getUser(
    request: ParsedRequestOf<Contracts['getUser']>,
  ): Promise<ResponseOf<Contracts['getUser']>> {
    return this.sessions.getUser(request);
  }

  @HandleRequest(identityContracts.verificationStatus)
  verificationStatus(
    request: ParsedRequestOf<Contracts['verificationStatus']>,
  ): Promise<ResponseOf<Contracts['verificationStatus']>> {
    return this.sessions.verificationStatus(request);
  }

  @HandleRequest(identityContracts.sendVerification)
  sendVerification(
    request: ParsedRequestOf<Contracts['sendVerification']>,
  ): Promise<ResponseOf<Contracts['sendVerification']>> {
    return this.sessions.sendVerification(request);
  }
}
