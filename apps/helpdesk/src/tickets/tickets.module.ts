import { Module } from '@nestjs/common';
import { TicketsRepository } from './tickets.repository';
import { TicketsTools } from './tickets.tools';
import { TicketsPrompts } from './tickets.prompts';
import { TicketsResources } from './tickets.resources';

@Module({ providers: [TicketsRepository, TicketsTools, TicketsPrompts, TicketsResources] })
export class TicketsModule {}
