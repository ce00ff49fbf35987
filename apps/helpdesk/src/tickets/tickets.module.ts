import { Module } from '@nestjs/common';
import { TicketsRepository } from './tickets.repository';
import { TicketsTools } from './tickets.tools';
import { TicketsPrompts } from './tickets.prompts';
import { TicketsResources } from './tickets.resources';
import { TriageBoardApp } from './triage-board.app';

@Module({ providers: [TicketsRepository, TicketsTools, TicketsPrompts, TicketsResources, TriageBoardApp] })
export class TicketsModule {}
